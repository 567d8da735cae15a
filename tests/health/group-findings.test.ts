// The groups list's findings column: a finding counts for each group it names, itself or through a webhook.
import { describe, expect, it } from "vitest";
import { findingsByGroup } from "@/lib/health/list";

describe("findingsByGroup", () => {
  it("counts a finding once per group it names, by severity, and only for the groups asked", () => {
    const findings = [
      {
        severity: "error" as const,
        subjects: [
          { kind: "webhook", id: 1, groupId: 10 },
          { kind: "group", id: 10 },
        ],
      },
      {
        severity: "warning" as const,
        subjects: [
          { kind: "webhook", id: 2, groupId: 10 },
          { kind: "webhook", id: 3, groupId: 20 },
        ],
      },
      { severity: "notice" as const, subjects: [{ kind: "event", id: 5 }] },
      { severity: "error" as const, subjects: [{ kind: "group", id: 30 }] },
    ];
    expect(Object.fromEntries(findingsByGroup(findings, new Set([10, 20])))).toEqual({
      10: { errors: 1, warnings: 1, notices: 0 },
      20: { errors: 0, warnings: 1, notices: 0 },
    });
    expect(findingsByGroup(findings).get(30)).toEqual({ errors: 1, warnings: 0, notices: 0 });
  });
});
