import { describe, expect, it } from "vitest";
import { auditFilterQuery, dayRange, parseAuditFilters } from "@/lib/audit-log/filters";

describe("audit log filters in the address", () => {
  it("reads good values and writes them back", () => {
    const { filters, notices } = parseAuditFilters(new URLSearchParams("person=ckabc123&action=team&from=2026-03-01&to=2026-03-31&page=2"));
    expect(notices).toEqual([]);
    expect(filters).toEqual({ person: "ckabc123", action: "team", from: "2026-03-01", to: "2026-03-31", page: 2 });
    expect(auditFilterQuery(filters)).toBe("?person=ckabc123&action=team&from=2026-03-01&to=2026-03-31&page=2");
    expect(auditFilterQuery(filters, { page: 1 })).toBe("?person=ckabc123&action=team&from=2026-03-01&to=2026-03-31");
    expect(auditFilterQuery({ page: 1 })).toBe("");
  });

  it("ignores a bad value with a reason, never throws", () => {
    const cases: Record<string, string>[] = [
      { from: "2026-02-30" },
      { to: "31/03/2026" },
      { from: "1999-12-31" },
      { action: "auth.sign_in_failedX" },
      { person: "x".repeat(65) },
      { person: "<script>" },
      { page: "0" },
      { page: "2.5" },
      { page: "100001" },
      { page: "abc" },
    ];
    for (const params of cases) {
      const parsed = parseAuditFilters(params);
      expect(parsed.notices, JSON.stringify(params)).toHaveLength(1);
      expect(parsed.filters).toEqual({ person: null, action: null, from: null, to: null, page: 1 });
    }
    const arrays = parseAuditFilters({ person: ["a", "b"], page: ["2", "3"], action: "" });
    expect(arrays.filters).toEqual({ person: null, action: null, from: null, to: null, page: 1 });
    expect(arrays.notices).toEqual(["The person was given more than once, so it was ignored.", "The page number was given more than once, so it was ignored."]);
  });

  it("covers whole UTC days, both ends included", () => {
    expect(dayRange("2026-03-01", "2026-03-31")).toEqual({ gte: new Date("2026-03-01T00:00:00Z"), lt: new Date("2026-04-01T00:00:00Z") });
    expect(dayRange("2024-02-29", null)).toEqual({ gte: new Date("2024-02-29T00:00:00Z") });
    expect(dayRange(null, "2026-12-31")).toEqual({ lt: new Date("2027-01-01T00:00:00Z") });
  });
});
