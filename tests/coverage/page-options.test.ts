import { describe, expect, it } from "vitest";
import type { EventCoverage } from "@/lib/coverage/compute";
import { coverageHref, parseCoverageParams } from "@/lib/coverage/search-params";
import { selectCoverageRows } from "@/lib/coverage/view";
import { findingsCsv } from "@/lib/health/csv";
import { parseCsv } from "@/lib/csv";

describe("the Coverage page's URL options", () => {
  it("reads every option, and writes back a URL that reproduces them (defaults left out)", () => {
    const state = parseCoverageParams({ scope: "all", q: " Gala ", only: "failing", sort: "-name", page: "3" });
    expect(state).toEqual({ scope: "all", q: "Gala", only: "failing", sort: "-name", page: 3, cell: null, notices: [] });
    expect(coverageHref(state)).toBe("/coverage?scope=all&q=Gala&only=failing&sort=-name&page=3");
    expect(parseCoverageParams(Object.fromEntries(new URL(`http://x${coverageHref(state)}`).searchParams))).toEqual(state);
    expect(coverageHref(parseCoverageParams({}))).toBe("/coverage");
  });

  it("reads the open panel's cell, keeps it across other options, and refuses a crafted one", () => {
    const state = parseCoverageParams({ cell: "61:registrant", scope: "all" });
    expect(state.cell).toEqual({ eventId: 61, object: "registrant" });
    expect(coverageHref(state, { sort: "name" })).toBe("/coverage?scope=all&sort=name&cell=61%3Aregistrant");
    expect(coverageHref(state, { cell: null })).toBe("/coverage?scope=all");
    for (const cell of ["61", "x:registrant", "61:Registrant<script>", "1".repeat(16) + ":event"]) {
      const parsed = parseCoverageParams({ cell });
      expect(parsed.cell, cell).toBeNull();
      expect(parsed.notices, cell).toHaveLength(1);
    }
  });

  it("falls back to the defaults for hostile values and says which", () => {
    const state = parseCoverageParams({ scope: "__proto__", sort: "constructor", only: ["gaps", "x"], page: "-1", q: "x".repeat(5000) });
    expect(state).toMatchObject({ scope: "open", sort: "start", only: "gaps", page: 1, q: "" });
    expect(state.notices).toHaveLength(2);
  });
});

const row = (id: number, name: string, start: string, gaps: number, met = true) =>
  ({ event: { id, name, start_date: start }, requirementsMet: met, counts: { ok: 1, degraded: 0, none: gaps, webhooks: 1 } }) as unknown as EventCoverage;

describe("the Coverage page's rows", () => {
  const rows = [row(1, "Zeta Gala", "2027-03-01", 0), row(2, "alpha summit", "2027-01-01", 2, false), row(3, "Beta Gala", "2027-02-01", 1)];
  it("filters by name (any case), gaps and failing requirements, and sorts", () => {
    expect(selectCoverageRows(rows, { q: "GALA", only: "", sort: "start" }).map((r) => r.event.id)).toEqual([3, 1]);
    expect(selectCoverageRows(rows, { q: "", only: "gaps", sort: "name" }).map((r) => r.event.id)).toEqual([2, 3]);
    expect(selectCoverageRows(rows, { q: "", only: "failing", sort: "start" }).map((r) => r.event.id)).toEqual([2]);
    expect(selectCoverageRows(rows, { q: "", only: "", sort: "gaps" }).map((r) => r.event.id)).toEqual([2, 3, 1]);
    expect(selectCoverageRows(rows, { q: "", only: "", sort: "-start" }).map((r) => r.event.id)).toEqual([1, 3, 2]);
  });
});

describe("the findings CSV", () => {
  it("has one row per finding, muted ones marked with their reason, and defuses formulas", () => {
    const finding = {
      ruleId: "plain-http-url" as const,
      severity: "error" as const,
      key: "7",
      message: '=HYPERLINK("http://evil")',
      subjects: [
        { kind: "webhook" as const, id: 7, groupId: 3 },
        { kind: "group" as const, id: 3 },
      ],
    };
    const mute = { id: "m", ruleId: "plain-http-url", findingKey: "8", reason: "@staging", createdByEmail: null, createdAt: new Date() };
    const [header, active, muted] = parseCsv(findingsCsv({ active: [finding], muted: [{ finding: { ...finding, key: "8" }, mute }] }));
    expect(header[0]).toBe("severity");
    expect(active.slice(0, 8)).toEqual(["error", "Webhook URL is not HTTPS", "plain-http-url", '\'=HYPERLINK("http://evil")', "3", "7", "", "no"]);
    expect(muted.slice(7, 9)).toEqual(["yes", "'@staging"]);
  });
});
