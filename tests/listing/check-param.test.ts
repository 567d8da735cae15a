// `check=<Health check>` in a list's URL (issue 37 §2): read by the listing's one parser, kept by its
// canonical address and saved views, refused with a clear notice when it is not a check or not a check
// of this list's records; and the pages the portal cuts from a check's ids (100 at most a call).
import { describe, expect, it } from "vitest";
import { checkListHref, hrefWith, toSearchParams, viewQueryOf } from "@/lib/listing/href";
import { idSetPage, withinIds } from "@/lib/listing/id-set-pages";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { describeViewQuery } from "@/lib/views/describe";
import { CHECKS, RULE_IDS } from "@/lib/setup/checks";
import { HEALTH_RULES } from "@/lib/health/rules";

const parse = (resource: "webhook-groups" | "webhooks" | "events", search: string) => parseListingSearchParams(resource, new URLSearchParams(search));

describe("check= in a list's URL", () => {
  it("reads a check of the list's records, and writes it back", () => {
    const state = parse("webhook-groups", "check=group-without-notification-emails&filter=name%3D*contains*sync");
    expect(state.check).toBe("group-without-notification-emails");
    expect(state.notices).toEqual([]);
    expect(toSearchParams(state).get("check")).toBe("group-without-notification-emails");
    // A saved view keeps it; removing the chip drops it and goes back to page 1.
    expect(viewQueryOf({ ...state, page: 4 })).toContain("check=group-without-notification-emails");
    expect(hrefWith({ ...state, page: 4 }, { check: null })).toBe("/webhook-groups?filter=name%3D*contains*sync");
    expect(describeViewQuery("webhook-groups", viewQueryOf(state))).toContain("Found by “Group serving live events has no notification emails”");
  });

  it("defaults to no check, and leaves it out of the address", () => {
    expect(parse("events", "").check).toBeNull();
    expect(toSearchParams(parse("events", "")).has("check")).toBe(false);
  });

  it("ignores what is not one of Health's checks, with a notice, keeping the other options", () => {
    for (const value of ["__proto__", "toString", "PLAIN-HTTP-URL", "plain-http-url ", "a".repeat(3000), "<img src=x onerror=alert(1)>"]) {
      const state = parse("webhooks", `check=${encodeURIComponent(value)}&per-page=50`);
      expect(state.check).toBeNull();
      expect(state.perPage).toBe(50);
      expect(state.notices).toHaveLength(1);
      expect(state.notices[0]).toMatch(/^Health check: “.{1,60}” is not one of Health's checks\. It was ignored\.$/);
    }
  });

  it("ignores a check of another list's records, naming the list it filters", () => {
    const state = parse("webhook-groups", "check=plain-http-url");
    expect(state.check).toBeNull();
    expect(state.notices).toEqual(["Health check: “Webhook URL is not HTTPS” finds webhooks, not webhook groups. It was ignored."]);
    expect(parse("events", "check=live-event-uncovered").check).toBe("live-event-uncovered");
  });

  it("links every check to the one list it filters, and that list accepts it", () => {
    for (const id of RULE_IDS) {
      const href = new URL(checkListHref(id), "http://portal");
      const resource = href.pathname.slice(1) as "webhook-groups" | "webhooks" | "events";
      expect(parse(resource, href.search.slice(1)).check).toBe(id);
    }
    expect(checkListHref("group-without-notification-emails")).toBe("/webhook-groups?check=group-without-notification-emails");
  });

  it("has the same titles as Health's rules", () => {
    for (const rule of HEALTH_RULES) expect(rule.title).toBe(CHECKS[rule.id].title);
  });
});

describe("a check's ids in pages", () => {
  const ids = Array.from({ length: 250 }, (_, i) => i * 3 + 1);

  it("cuts pages by id, at most 100 ids a page", () => {
    expect(idSetPage(ids, 1, 20)).toMatchObject({ ids: ids.slice(0, 20), totalCount: 250, pageCount: 13, currentPage: 1, perPage: 20 });
    expect(idSetPage(ids, 3, 200)).toMatchObject({ ids: ids.slice(200, 250), pageCount: 3, currentPage: 3, perPage: 100 });
    // Past the last page: the last one, as the API answers.
    expect(idSetPage(ids, 99, 100)).toMatchObject({ ids: ids.slice(200), currentPage: 3 });
    expect(idSetPage([], 2, 20)).toMatchObject({ ids: [], totalCount: 0, pageCount: 0, currentPage: 1 });
  });

  it("narrows by the list's ids=", () => {
    expect(withinIds([1, 4, 7, 10], [10, 2, 4])).toEqual([4, 10]);
    expect(withinIds([1, 4], [])).toEqual([1, 4]);
  });
});
