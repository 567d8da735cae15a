import { describe, expect, it } from "vitest";
import { checkBaseUrl, SEARCHABLE_FIELDS, type EmsResource, type SearchOperator } from "@/lib/ems/contract";
import { normalizeBaseUrl } from "@/lib/ems/credentials";
import { InvalidBaseUrlError, InvalidQueryError } from "@/lib/ems/errors";
import { validateQuery } from "@/lib/ems/query";
import { valueProblem } from "@/lib/listing/filters";
import { parseListingSearchParams } from "@/lib/listing/search-params";

/** Whether the EMS client would send this one condition. */
function clientAccepts(resource: EmsResource, field: string, operator: SearchOperator, value: string): boolean {
  try {
    validateQuery(resource, { search: [{ field, operator, value }] });
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidQueryError);
    return false;
  }
}

/** Whether the listing's filter builder (in the browser) lets the form go. */
function filterAccepts(resource: EmsResource, field: string, operator: SearchOperator, value: string): boolean {
  const type = (SEARCHABLE_FIELDS[resource] as Record<string, "number" | "text" | "date">)[field];
  return valueProblem(field, type, value, operator) === null;
}

describe("one search-value rule for the listing and the EMS client", () => {
  it.each<[EmsResource, string, SearchOperator, string, boolean]>([
    // A date prefix compares as text but is not a date in the field's format: both refuse it.
    ["events", "start_date", ">=", "2026", false],
    ["events", "start_date", "<", "2026-11", false],
    ["events", "created_at", ">=", "2026-01-01 10:00", false],
    ["events", "start_date", ">=", "2026-01-01 10:00:00", false],
    ["events", "start_date", ">=", "2026-01-01", true],
    ["events", "created_at", ">=", "2026-01-01", true],
    ["events", "created_at", "<=", "2026-01-01 10:00:00", true],
    // A part of a date goes with a text operator.
    ["events", "start_date", "=*beginswith*", "2026", true],
    ["events", "id", ">", "7", true],
    ["events", "id", ">", "1234567890123456", false],
    ["events", "id", "=", " 7", false],
    ["webhook-groups", "name", "=", "*within*x", false],
    ["webhook-groups", "name", ">", "*a*", true],
    ["webhook-groups", "name", "=*contains*", "R&D", false],
    ["webhook-groups", "name", "=*contains*", "tab\there", false],
    ["webhook-groups", "name", "=*contains*", "x".repeat(201), false],
    ["webhook-groups", "name", "=*contains*", "   ", false],
    ["webhook-groups", "name", "=*contains*", "summit", true],
    // "is one of": |-separated values, each fitting the field.
    ["webhook-groups", "id", "=*in*", "12|15|40", true],
    ["webhook-groups", "id", "!=*in*", "12", true],
    ["webhook-groups", "id", "=*in*", "12|x", false],
    ["webhook-groups", "id", "=*in*", "", false],
    ["events", "status", "=*in*", "live|draft", true],
    ["events", "status", "=*in*", "live||draft", false],
    ["events", "status", "=*in*", "live|", false],
    ["events", "start_date", "=*in*", "2026-01-01|2026-02-01", true],
  ])("%s %s%s%s: accepted = %s on both sides", (resource, field, operator, value, accepted) => {
    expect(clientAccepts(resource, field, operator, value)).toBe(accepted);
    expect(filterAccepts(resource, field, operator, value)).toBe(accepted);
  });

  it("drops a date prefix from a listing URL with a notice, so the page never sends what the client refuses", () => {
    const state = parseListingSearchParams("events", new URLSearchParams({ filter: "start_date>=2026" }));
    expect(state.filters).toEqual([]);
    expect(state.notices[0]).toContain("YYYY-MM-DD");
  });
});

describe("one base-URL rule for the settings form and the EMS client", () => {
  it.each([
    "https://api.example.com/",
    " http://localhost:3000/sandbox/ ",
    "http://[::1]:4010",
    "http://api.example.com",
    "ftp://api.example.com",
    "https://user:pw@api.example.com",
    "https://api.example.com/?x=1",
    "https://api.example.com/api/v1",
    "not a url",
  ])("%s", (input) => {
    const checked = checkBaseUrl(input);
    if (checked.ok) {
      expect(normalizeBaseUrl(input)).toBe(checked.baseUrl);
    } else {
      expect(() => normalizeBaseUrl(input)).toThrow(InvalidBaseUrlError);
      expect(() => normalizeBaseUrl(input)).toThrow(checked.message);
    }
  });
});
