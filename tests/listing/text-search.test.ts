import { describe, expect, it } from "vitest";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { textSearchFilters, textSearchHref, textSearchListHref, textSearchOf, textSearchProblem } from "@/lib/listing/text-search";

const stateOf = (href: string) => {
  const url = new URL(href, "http://portal.test");
  const resource = url.pathname.slice(1) as "webhooks" | "events" | "webhook-groups";
  return parseListingSearchParams(resource, url.searchParams);
};

describe("a list's search box and the palette search the same way", () => {
  it("looks for the words in a webhook's name or URL, and for the record with that number", () => {
    expect(textSearchFilters("webhooks", "zapier")).toEqual([
      { field: "name", operator: "=*contains*", value: "zapier" },
      { field: "url", operator: "=*contains*", value: "zapier" },
    ]);
    expect(textSearchFilters("events", "411").map((filter) => filter.field)).toEqual(["name", "id"]);
  });

  it("writes a search as conditions joined with OR, which the list reads back as that search", () => {
    const state = stateOf("/webhooks?sort=-id&per-page=50");
    const href = textSearchHref(state, "  hooks.zapier.com ");
    expect(href).toBe("/webhooks?filter=name%3D*contains*hooks.zapier.com&filter=url%3D*contains*hooks.zapier.com&searchCondition=or&sort=-id&per-page=50");
    expect(textSearchOf(stateOf(href))).toBe("hooks.zapier.com");
    // The palette's "All N matching" opens the same list.
    expect(stateOf(textSearchListHref("webhooks", "hooks.zapier.com")).filters).toEqual(stateOf(href).filters);
  });

  it("takes the place of the list's other conditions, and an empty search clears it", () => {
    const filtered = stateOf("/webhooks?filter=enabled%3D1&page=3");
    expect(textSearchOf(filtered)).toBeNull();
    expect(stateOf(textSearchHref(filtered, "crm")).filters.map((filter) => filter.field)).toEqual(["name", "url"]);
    expect(textSearchHref(stateOf(textSearchHref(filtered, "crm")), "")).toBe("/webhooks");
  });

  it("is not a search when the same conditions are joined with AND, or one is missing", () => {
    expect(textSearchOf(stateOf("/webhooks?filter=name%3D*contains*a&filter=url%3D*contains*a"))).toBeNull();
    expect(textSearchOf(stateOf("/webhooks?filter=name%3D*contains*a"))).toBeNull();
    expect(textSearchOf(stateOf("/events?filter=name%3D*contains*a"))).toBe("a");
  });

  it("says why a text cannot be searched for", () => {
    expect(textSearchProblem("a&b")).toMatch(/cannot search for “&”/);
    expect(textSearchProblem("a\tb")).toMatch(/control character/);
    expect(textSearchProblem("Kraków ✓")).toBeNull();
  });
});
