import { describe, expect, it } from "vitest";
import { InvalidQueryError } from "@/lib/ems/errors";
import { OPERATORS_BY_TYPE } from "@/lib/ems/contract";
import { buildQueryString, eventQuerySchema, webhookGroupQuerySchema, type EventQuery, type WebhookGroupQuery } from "@/lib/ems/query";

function problems(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidQueryError);
    return (error as InvalidQueryError).issues;
  }
  throw new Error("expected an InvalidQueryError");
}

describe("buildQueryString", () => {
  it("is empty for an empty query", () => {
    expect(buildQueryString("webhook-groups", {})).toBe("");
  });

  it("writes every parameter in a fixed order with the contract's names", () => {
    const query: WebhookGroupQuery = {
      ids: [3, 1, 2],
      sort: [
        { field: "name", direction: "desc" },
        { field: "id", direction: "asc" },
      ],
      perPage: 50,
      page: 2,
      searchCondition: "or",
      search: [{ field: "name", operator: "=*contains*", value: "summit" }],
      expand: ["webhooks"],
      fields: ["id", "name", "notification_emails"],
    };
    expect(buildQueryString("webhook-groups", query)).toBe(
      "fields=id,name,notification_emails&expand=webhooks&search=name%3D*contains*summit&searchCondition=or&page=2&per-page=50&sort=-name,id&ids=3,1,2",
    );
  });

  it("joins search conditions with an encoded & and encodes each value", () => {
    const qs = buildQueryString("webhook-groups", {
      search: [
        { field: "id", operator: ">=", value: "100" },
        { field: "name", operator: "!=*endswith*", value: "test" },
        { field: "name", operator: "=*beginswith*", value: "a+b =c/é%" },
      ],
    });
    expect(qs).toBe("search=id%3E%3D100%26name!%3D*endswith*test%26name%3D*beginswith*a%2Bb%20%3Dc%2F%C3%A9%25");
    // What the server sees after decoding the parameter: conditions split at "&".
    expect(new URLSearchParams(qs).get("search")).toBe("id>=100&name!=*endswith*test&name=*beginswith*a+b =c/é%");
  });

  it("refuses a value containing & with a message that says why", () => {
    const issues = problems(() => buildQueryString("webhook-groups", { search: [{ field: "name", operator: "=*contains*", value: "R&D" }] }));
    expect(issues.join()).toMatch(/contains "&".*cannot express/);
  });

  it("accepts every operator of a field's type, including the negations", () => {
    for (const operator of OPERATORS_BY_TYPE.text) {
      expect(() => buildQueryString("events", { search: [{ field: "status", operator, value: "live" }] })).not.toThrow();
    }
    for (const operator of OPERATORS_BY_TYPE.number) {
      expect(buildQueryString("events", { search: [{ field: "id", operator, value: "7" }] })).toMatch(/^search=id/);
    }
    expect(buildQueryString("events", { search: [{ field: "created_at", operator: ">=", value: "2026-01-01 10:00:00" }] })).toBe(
      "search=created_at%3E%3D2026-01-01%2010%3A00%3A00",
    );
    expect(buildQueryString("events", { search: [{ field: "start_date", operator: "=*beginswith*", value: "2026-11" }] })).toBeTruthy();
    // Events are asked for by field name, and sort by any standard field.
    expect(buildQueryString("events", { fields: ["id", "start_date"], sort: [{ field: "start_date", direction: "desc" }] })).toBe(
      "fields=id,start_date&sort=-start_date",
    );
  });

  it.each<[string, EventQuery | WebhookGroupQuery, RegExp]>([
    ["unknown field", { fields: ["id", "colour" as never] }, /unknown field "colour"/],
    ["duplicate field", { fields: ["id", "id"] }, /listed twice/],
    ["expand on events", { expand: ["webhooks" as never] }, /nothing to expand/],
    ["perPage 0", { perPage: 0 }, /perPage must be a whole number from 1 to 200/],
    ["perPage 201", { perPage: 201 }, /from 1 to 200/],
    ["perPage 1.5", { perPage: 1.5 }, /from 1 to 200/],
    ["page 0", { page: 0 }, /page must be a whole number from 1/],
    ["101 ids", { ids: Array.from({ length: 101 }, (_, i) => i + 1) }, /at most 100 ids/],
    ["id 0", { ids: [0] }, /positive whole numbers/],
    ["id -1", { ids: [-1] }, /positive whole numbers/],
    ["id 1.5", { ids: [1.5] }, /positive whole numbers/],
    ["empty ids", { ids: [] }, /at least one id/],
    ["unsearchable field", { search: [{ field: "timezone", operator: "=", value: "UTC" }] }, /"timezone" cannot be searched/],
    ["text operator on a number", { search: [{ field: "id", operator: "=*contains*", value: "1" }] }, /does not fit id \(a number field\)/],
    ["unknown operator", { search: [{ field: "name", operator: "~" as never, value: "x" }] }, /operator must be one of/],
    ["number value", { search: [{ field: "id", operator: ">", value: "ten" }] }, /not a whole number/],
    ["date value", { search: [{ field: "start_date", operator: ">=", value: "21/11/2026" }] }, /YYYY-MM-DD/],
    ["empty value", { search: [{ field: "name", operator: "=", value: " " }] }, /empty/],
    ["value looking like an operator", { search: [{ field: "name", operator: "=", value: "*within*x" }] }, /cannot start with "\*"/],
    ["bad sort field", { sort: [{ field: "headers" as never, direction: "asc" }] }, /cannot sort by "headers"/],
    [
      "duplicate sort",
      {
        sort: [
          { field: "id", direction: "asc" },
          { field: "id", direction: "desc" },
        ],
      },
      /sort names a field twice/,
    ],
    ["bad direction", { sort: [{ field: "id", direction: "up" as never }] }, /"asc" or "desc"/],
    ["bad searchCondition", { searchCondition: "xor" as never }, /"and" or "or"/],
    ["unknown option", { limit: 5 } as never, /unknown query option "limit"/],
  ])("refuses %s", (_name, query, message) => {
    expect(problems(() => buildQueryString("events", query as EventQuery)).join("; ")).toMatch(message);
  });

  it("keeps zod schemas usable on their own (e.g. for URL parsing)", () => {
    expect(webhookGroupQuerySchema.safeParse({ perPage: 200, expand: ["webhooks"] }).success).toBe(true);
    expect(eventQuerySchema.safeParse({ perPage: 200, expand: ["webhooks"] }).success).toBe(false);
  });
});

describe("the set operator *in* and the webhooks listing", () => {
  it("writes =*in* and !=*in* with |-separated values, encoded", () => {
    expect(buildQueryString("events", { search: [{ field: "status", operator: "=*in*", value: "live|draft" }] })).toBe("search=status%3D*in*live%7Cdraft");
    const qs = buildQueryString("webhooks", {
      fields: ["id", "url", "enabled", "event_ids"],
      search: [
        { field: "group_id", operator: "!=*in*", value: "12|15|40" },
        { field: "enabled", operator: "=", value: "1" },
      ],
      sort: [{ field: "trigger_object", direction: "asc" }],
    });
    expect(qs).toBe("fields=id,url,enabled,event_ids&search=group_id!%3D*in*12%7C15%7C40%26enabled%3D1&sort=trigger_object");
    expect(new URLSearchParams(qs).get("search")).toBe("group_id!=*in*12|15|40&enabled=1");
  });

  it("refuses an empty list, an empty entry, and values that do not fit the field", () => {
    expect(problems(() => buildQueryString("webhook-groups", { search: [{ field: "id", operator: "=*in*", value: "" }] }))).toEqual(["the search value for id is empty"]);
    expect(problems(() => buildQueryString("events", { search: [{ field: "status", operator: "=*in*", value: "live||draft" }] }))).toEqual([
      'the list of values for status has an empty entry ("live||draft"); separate values with a single |',
    ]);
    expect(problems(() => buildQueryString("webhook-groups", { search: [{ field: "id", operator: "=*in*", value: "12|x" }] }))).toEqual([
      'id is a number field; "12|x" is not a whole number (or whole numbers separated by |)',
    ]);
    expect(problems(() => buildQueryString("webhooks", { search: [{ field: "enabled", operator: "=", value: "true" }] }))).toEqual([
      'enabled is a yes/no field searched with 0 or 1; "true" is not one',
    ]);
    expect(problems(() => buildQueryString("webhooks", { search: [{ field: "enabled", operator: ">", value: "0" }] }))).toEqual([
      '">" does not fit enabled (a boolean field); use one of = != =*in* !=*in*',
    ]);
    expect(problems(() => buildQueryString("webhooks", { expand: ["webhooks" as never] }))).toEqual(["webhooks have nothing to expand"]);
    expect(problems(() => buildQueryString("webhooks", { sort: [{ field: "event_ids" as never, direction: "asc" }] }))[0]).toMatch(/^cannot sort by "event_ids"/);
  });

  it("every field type offers the set operators", () => {
    for (const operators of Object.values(OPERATORS_BY_TYPE)) expect(operators).toEqual(expect.arrayContaining(["=*in*", "!=*in*"]));
  });
});
