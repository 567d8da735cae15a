import { describe, expect, it } from "vitest";
import { hrefOf, optionsHrefOf, sortByColumn, sortThenBy, toSearchParams, viewQueryOf } from "@/lib/listing/href";
import { hasListingOptions, parseListingSearchParams } from "@/lib/listing/search-params";
import { toEmsQuery } from "@/lib/listing/query";
import { buildQueryString, validateQuery } from "@/lib/ems/query";
import { WEBHOOK_GROUP_LISTING, EVENT_LISTING } from "@/lib/listing/resources";

const parse = (resource: "webhook-groups" | "events", search: string) => parseListingSearchParams(resource, new URLSearchParams(search));

describe("listing URL schema", () => {
  it("keeps the first four sort levels of five, and says the fifth was ignored", () => {
    const state = parse("events", "sort=-start_date,name,status,id,capacity");
    expect(state.sort.map((key) => key.field)).toEqual(["start_date", "name", "status", "id"]);
    expect(state.notices).toEqual(["Sort: at most 4 levels are used; the ones after the first 4 were ignored."]);
    // A repeated field counts once.
    expect(parse("events", "sort=name,-name,id,status,capacity").notices).toEqual([]);
  });

  it("gives the defaults for an empty URL, without notices", () => {
    const state = parse("webhook-groups", "");
    expect(state.fields).toEqual([...WEBHOOK_GROUP_LISTING.defaultFields]);
    expect(state).toMatchObject({ page: 1, perPage: 20, filters: [], sort: [], ids: [], expand: [], searchCondition: "and", view: null, notices: [] });
    expect(toSearchParams(state).toString()).toBe("");
  });

  it("reads every option", () => {
    const state = parse(
      "webhook-groups",
      "fields=id,name&expand=webhooks&filter=name%3D*contains*summit&filter=id%3E%3D100&searchCondition=or&sort=-id,name&page=3&per-page=50&ids=5,%206,5&view=abc123",
    );
    expect(state.notices).toEqual([]);
    expect(state.fields).toEqual(["id", "name"]);
    expect(state.expand).toEqual(["webhooks"]);
    expect(state.filters).toEqual([
      { field: "name", operator: "=*contains*", value: "summit" },
      { field: "id", operator: ">=", value: "100" },
    ]);
    expect(state.searchCondition).toBe("or");
    expect(state.sort).toEqual([
      { field: "id", direction: "desc" },
      { field: "name", direction: "asc" },
    ]);
    expect(state).toMatchObject({ page: 3, perPage: 50, ids: [5, 6], view: "abc123" });
  });

  it("round-trips through the canonical URL", () => {
    const search = "fields=id%2Cname&expand=webhooks&filter=name%21%3D*endswith*test&filter=id%3C10&searchCondition=or&sort=-id&ids=1%2C2&per-page=200&page=2&view=v1";
    const state = parse("webhook-groups", search);
    expect(toSearchParams(state).toString()).toBe(search);
    expect(parse("webhook-groups", toSearchParams(state).toString())).toEqual(state);
  });

  it("accepts repeated fields parameters, as a GET form with checkboxes sends them", () => {
    const state = parse("events", "fields=id&fields=name&fields=status");
    expect(state.fields).toEqual(["id", "name", "status"]);
  });

  it("treats empty form fields as not set", () => {
    const state = parse("webhook-groups", "ids=&per-page=20&searchCondition=and&sort=");
    expect(state.notices).toEqual([]);
    expect(state.ids).toEqual([]);
    expect(hasListingOptions(new URLSearchParams("per-page=20"))).toBe(true);
    expect(hasListingOptions(new URLSearchParams("view=abc"))).toBe(false);
    expect(hasListingOptions(new URLSearchParams("utm_source=x"))).toBe(false);
  });

  it("drops only the bad entry of a list, with a notice naming it", () => {
    const state = parse("webhook-groups", "fields=id,bogus,name&sort=name,-headers");
    expect(state.fields).toEqual(["id", "name"]);
    expect(state.sort).toEqual([{ field: "name", direction: "asc" }]);
    expect(state.notices).toHaveLength(2);
    expect(state.notices[0]).toContain("“bogus”");
    expect(state.notices[1]).toContain("“headers”");
  });

  it("falls back on bad scalar values instead of failing", () => {
    const state = parse("events", "page=0&per-page=37&searchCondition=xor&view=../../etc");
    expect(state).toMatchObject({ page: 1, perPage: 20, searchCondition: "and", view: null });
    expect(state.notices).toHaveLength(4);
    expect(state.notices.join(" ")).toMatch(/Rows per page must be one of 20, 50, 100, 200/);
    expect(parse("events", "page=abc").notices[0]).toMatch(/whole number/);
  });

  it("drops bad filters one by one and keeps the good ones", () => {
    const state = parse(
      "webhook-groups",
      [
        "filter=name%3D*contains*ok",
        "filter=headers%3Dx", // not searchable
        "filter=id%3D*contains*1", // text operator on a number
        "filter=id%3Dabc", // not a number
        "filter=name%3D*contains*a%26b", // & cannot be sent
        "filter=name%3D*within*x", // mistyped operator
        "filter=name%3D", // no value
      ].join("&"),
    );
    expect(state.filters).toEqual([{ field: "name", operator: "=*contains*", value: "ok" }]);
    expect(state.notices).toHaveLength(6);
    expect(state.notices.join("\n")).toContain("&");
  });

  it("knows each resource's searchable fields and operators", () => {
    const events = parse("events", "filter=status%21%3D*contains*draft&filter=start_date%3E%3D2026-01-01&filter=capacity%3E5");
    expect(events.filters.map((f) => f.field)).toEqual(["status", "start_date"]);
    expect(events.notices[0]).toContain("“capacity” cannot be filtered on");
    // Dates compare as text: any operator the EMS client allows for the type, a format for comparisons.
    const dateText = parse("events", "filter=start_date%3D*contains*-05-&filter=end_date%3C%3Dsoon");
    expect(dateText.filters).toEqual([{ field: "start_date", operator: "=*contains*", value: "-05-" }]);
    expect(dateText.notices[0]).toContain("YYYY-MM-DD");
  });

  it("reports exactly what is wrong with the ids box and does not apply it", () => {
    const state = parse("webhook-groups", "ids=1,abc,0,2.5,-3");
    expect(state.ids).toEqual([]);
    expect(state.idsText).toBe("1,abc,0,2.5,-3");
    expect(state.idsErrors).toHaveLength(4);
    expect(state.idsErrors[0]).toContain("Entry 2 (“abc”)");
    expect(state.idsErrors[1]).toContain("Entry 3 (“0”)");
    expect(state.idsErrors[2]).toContain("Entry 4 (“2.5”)");
    expect(state.idsErrors[3]).toContain("Entry 5 (“-3”)");
    // The box keeps what was typed, so it can be corrected; the URL keeps it too.
    expect(toSearchParams(state).get("ids")).toBe("1,abc,0,2.5,-3");
  });

  it("refuses more than 100 ids", () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1).join("\n");
    const state = parse("events", `ids=${encodeURIComponent(ids)}`);
    expect(state.ids).toEqual([]);
    expect(state.idsErrors).toEqual(["101 different ids were given; at most 100 can be asked for at once."]);
  });

  it("leaves page and view out of a view's query", () => {
    const state = parse("events", "sort=-start_date&page=4&view=x1");
    expect(viewQueryOf(state)).toBe("sort=-start_date");
  });
});

describe("sorting by headers", () => {
  it("sorts by a column, flips it on the second click, and keeps further levels", () => {
    expect(sortByColumn([], "name")).toEqual([{ field: "name", direction: "asc" }]);
    expect(sortByColumn([{ field: "name", direction: "asc" }], "name")).toEqual([{ field: "name", direction: "desc" }]);
    expect(
      sortByColumn(
        [
          { field: "name", direction: "asc" },
          { field: "id", direction: "desc" },
        ],
        "name",
      ),
    ).toEqual([
      { field: "name", direction: "desc" },
      { field: "id", direction: "desc" },
    ]);
    expect(sortByColumn([{ field: "name", direction: "asc" }], "id")).toEqual([{ field: "id", direction: "asc" }]);
  });

  it("turns the leading column off on the third click, keeping the levels after it", () => {
    expect(sortByColumn([{ field: "name", direction: "desc" }], "name")).toEqual([]);
    expect(
      sortByColumn(
        [
          { field: "name", direction: "desc" },
          { field: "id", direction: "asc" },
        ],
        "name",
      ),
    ).toEqual([{ field: "id", direction: "asc" }]);
  });

  it("adds levels and flips a level in place", () => {
    const two = sortThenBy([{ field: "name", direction: "asc" }], "id");
    expect(two).toEqual([
      { field: "name", direction: "asc" },
      { field: "id", direction: "asc" },
    ]);
    expect(sortThenBy(two, "id")[1]).toEqual({ field: "id", direction: "desc" });
    // A third shift-click removes that level only.
    expect(sortThenBy(sortThenBy(two, "id"), "id")).toEqual([{ field: "name", direction: "asc" }]);
    expect(
      sortThenBy(
        [
          { field: "name", direction: "desc" },
          { field: "id", direction: "asc" },
        ],
        "name",
      ),
    ).toEqual([{ field: "id", direction: "asc" }]);
  });

  it("never adds a fifth level", () => {
    const four = ["id", "name", "status", "start_date"].map((field) => ({ field, direction: "asc" as const }));
    expect(sortThenBy(four, "end_date")).toEqual(four);
  });

  it("resets to the first page when the sort changes", () => {
    const state = parse("webhook-groups", "page=3");
    expect(hrefOf(state, { sort: [{ field: "id", direction: "desc" }], page: 1 })).toBe("/webhook-groups?sort=-id");
  });
});

describe("the options page without JavaScript", () => {
  it("carries the list's options, page and view included, and comes back to the same list", () => {
    const state = parse("events", "filter=status%3Dlive&sort=-id&per-page=50&page=2&view=abc");
    const href = optionsHrefOf(state);
    expect(href).toBe("/events/options?filter=status%3Dlive&sort=-id&per-page=50&page=2&view=abc");
    expect(hrefOf(parse("events", href.split("?")[1]!))).toBe(hrefOf(state));
    expect(optionsHrefOf(parse("webhook-groups", ""))).toBe("/webhook-groups/options");
  });
});

describe("from the URL to the EMS query", () => {
  it("builds a query the EMS client accepts, asking for events' columns by name", () => {
    const state = parse("events", "filter=name%3D*contains*summit&sort=-start_date&per-page=50&page=2");
    const query = toEmsQuery(state);
    expect(query.fields).toEqual(expect.arrayContaining([...EVENT_LISTING.defaultFields, "start_time", "end_time"]));
    expect(() => validateQuery("events", query as never)).not.toThrow();
    expect(buildQueryString("events", query as never)).toContain("search=name%3D*contains*summit");
  });

  it("passes ids, expand and OR", () => {
    const state = parse("webhook-groups", "expand=webhooks&ids=3,4&filter=id%3E1&filter=name%3Dx&searchCondition=or");
    const query = toEmsQuery(state);
    expect(query).toMatchObject({ expand: ["webhooks"], ids: [3, 4], searchCondition: "or" });
    expect(() => validateQuery("webhook-groups", query as never)).not.toThrow();
  });
});

describe("names every object inherits (they made the page and the export answer 500)", () => {
  const inherited = ["__proto__", "constructor", "tostring", "hasownproperty", "valueof", "__definegetter__"];

  it("are not fields a filter may name: the filter is ignored with a notice", () => {
    for (const resource of ["webhook-groups", "events"] as const) {
      for (const name of inherited) {
        for (const filter of [`${name}=1`, name, `${name}=*contains*x`]) {
          const state = parse(resource, `filter=${encodeURIComponent(filter)}`);
          expect(state.filters, filter).toEqual([]);
          expect(state.notices, filter).toEqual([expect.stringContaining(`“${name}” cannot be filtered on`)]);
        }
      }
    }
  });

  it("are not options of the page either (nor sort keys or columns)", () => {
    for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const search = `${key}=1`;
      expect(hasListingOptions(new URLSearchParams(search)), key).toBe(false);
      expect(parse("webhook-groups", search).notices, key).toEqual([]);
    }
    expect(parse("events", "sort=constructor,__proto__&fields=toString,constructor").notices).toHaveLength(4);
  });

  it("are not searchable in the EMS client's query check either (the contract's tables have no prototype)", () => {
    for (const field of ["__proto__", "constructor", "toString"]) {
      expect(() => validateQuery("webhook-groups", { search: [{ field, operator: "=", value: "1" }] } as never), field).toThrow(/cannot be searched/);
    }
  });
});
