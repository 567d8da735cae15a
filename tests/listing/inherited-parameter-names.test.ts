// Issue 24, finding 5: `/webhook-groups?toString=1` (and `constructor`, `valueOf`, `hasOwnProperty`,
// the same on `/events`) answered 500. Next.js builds a page's searchParams by assigning each name on
// a plain object, so `?toString=1` arrives as `{ toString: [Object.prototype.toString, "1"] }` and
// `?__proto__=1` replaces the prototype. These tests build the object with Next.js's own function
// (the one its server calls for a page's query), and feed it to every parser of a page's URL.
import { searchParamsToUrlQuery } from "next/dist/shared/lib/router/utils/querystring";
import { describe, expect, it } from "vitest";
import { parseAuditFilters } from "@/lib/audit-log/filters";
import { parseCoverageParams } from "@/lib/coverage/search-params";
import { parseFeedParams } from "@/lib/history/feed-params";
import { canonicalListingQuery } from "@/lib/listing/canonical";
import { hasListingOptions, parseListingSearchParams } from "@/lib/listing/search-params";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";

const INHERITED_NAMES = ["toString", "constructor", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString"];

/** The object a page gets for `?<query>`, as Next.js makes it. */
function asNextPasses(query: string): PageSearchParams {
  return searchParamsToUrlQuery(new URLSearchParams(query)) as PageSearchParams;
}

/** Each hostile query, in the object Next.js passes and in a null-prototype object holding strings. */
function hostileInputs(extra = ""): [string, PageSearchParams][] {
  return INHERITED_NAMES.flatMap((name) => {
    const query = `${name}=1${extra}`;
    const plain = Object.assign(Object.create(null) as PageSearchParams, Object.fromEntries(new URLSearchParams(query)));
    return [
      [`${query} (Next.js)`, asNextPasses(query)],
      [`${name}=1&${name}=2 (Next.js)`, asNextPasses(`${name}=1&${name}=2${extra}`)],
      [`${query} (null prototype)`, plain],
    ] as [string, PageSearchParams][];
  });
}

describe("pageSearchParams", () => {
  it("keeps own string values only: an inherited function is dropped, the strings stay", () => {
    expect(pageSearchParams(asNextPasses("toString=1&sort=-id")).toString()).toBe("toString=1&sort=-id");
    expect([...pageSearchParams(asNextPasses("constructor=1&constructor=2")).getAll("constructor")]).toEqual(["1", "2"]);
    expect(pageSearchParams(asNextPasses("__proto__=1&page=2")).toString()).toBe("page=2");
    expect(pageSearchParams({ a: ["1", "2"], b: undefined, c: "3" }).toString()).toBe("a=1&a=2&c=3");
  });
});

describe("every parser of a page's URL survives names every object inherits", () => {
  it("the listings (/webhook-groups, /events): parsed with the options that came with them", () => {
    // What they crashed on: a function where a string was expected.
    const shape = asNextPasses("toString=1") as Record<string, unknown>;
    expect(typeof (shape.toString as unknown as unknown[])[0]).toBe("function");
    for (const resource of ["webhook-groups", "events"] as const) {
      for (const [label, input] of hostileInputs("&sort=-id&per-page=50")) {
        const state = parseListingSearchParams(resource, input);
        expect(state.perPage, `${resource} ${label}`).toBe(50);
        expect(state.sort, `${resource} ${label}`).toEqual([{ field: "id", direction: "desc" }]);
        expect(hasListingOptions(input), `${resource} ${label}`).toBe(true);
        expect(() => canonicalListingQuery(resource, input), `${resource} ${label}`).not.toThrow();
      }
    }
  });

  // These read fixed names only and did not crash; they now read the same URLSearchParams.
  it("the changes feed, coverage and the audit log", () => {
    for (const [label, input] of hostileInputs("&page=2")) {
      expect(parseFeedParams(input).page, label).toBe(2);
      expect(parseCoverageParams(input).page, label).toBe(2);
      expect(parseAuditFilters(input).filters.page, label).toBe(2);
    }
  });
});
