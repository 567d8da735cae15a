import { describe, expect, it } from "vitest";
import { runHealthChecks, type Finding } from "@/lib/health/rules";
import type { SetupData } from "@/lib/setup/setup-data";
import { DEFAULT_ACCOUNTS } from "@/lib/sandbox/core/config";
import { datasetFor } from "@/lib/sandbox/data/datasets";
import { PLANTED_FAULTS, type PlantedFault } from "@/lib/sandbox/data/faults";

/**
 * The rules over the sandbox's demo account (lib/sandbox/core/config.ts DEFAULT_ACCOUNTS[0], the
 * one DEMO_CREDENTIALS sign in to) find every kind of fault the sandbox plants
 * (lib/sandbox/data/faults.ts), in the group it was planted in.
 */

/** The account as the portal lists it: groups with expand=webhooks, and every event. */
function demoSetup(): { data: SetupData; plantedGroups: Map<PlantedFault, number[]>; uncoveredEventIds: readonly number[] } {
  const dataset = datasetFor(DEFAULT_ACCOUNTS[0]);
  const groups = Array.from({ length: dataset.groups.size }, (_, index) => ({ ...dataset.groups.row(index), webhooks: dataset.webhooksOf(index) }));
  const events = Array.from({ length: dataset.events.size }, (_, index) => dataset.events.row(index));
  const plantedGroups = new Map<PlantedFault, number[]>();
  for (const [index, faults] of dataset.plan.byGroupIndex) for (const fault of faults) plantedGroups.set(fault, [...(plantedGroups.get(fault) ?? []), groups[index].id]);
  return { data: { groups, events }, plantedGroups, uncoveredEventIds: dataset.plan.uncoveredEventIds };
}

/** The rule that finds each planted fault. */
const RULE_FOR: Record<PlantedFault, string> = {
  "http-url": "plain-http-url",
  "duplicate-url": "duplicate-url-trigger",
  "shared-credential": "shared-credential-header",
  "insert-without-delete": "insert-without-delete",
  "past-events-only": "webhook-ended-events-only",
  "disabled-live": "disabled-webhook-live-event",
  "no-emails": "group-without-notification-emails",
};

/**
 * The sandbox plants by status (events span 2024-2027): a clock before every generated event
 * makes status alone decide what is live or ended, as the plan assumes.
 */
const BEFORE_EVERY_EVENT = new Date("2024-01-01T00:00:00Z");

const groupIdsOf = (finding: Finding) => new Set(finding.subjects.map((subject) => (subject.kind === "group" ? subject.id : subject.groupId)));

describe("health checks over the demo account", () => {
  const { data, plantedGroups, uncoveredEventIds } = demoSetup();
  const findings = runHealthChecks(data, { now: BEFORE_EVERY_EVENT, requiredTriggers: ["registrant:insert", "registrant:delete"] });

  it("plants every kind of fault (the sandbox's own promise)", () => {
    expect([...plantedGroups.keys()].sort()).toEqual([...PLANTED_FAULTS].sort());
  });

  it.each(PLANTED_FAULTS.map((fault) => [fault, RULE_FOR[fault]]))("finds the planted %s fault with %s, in the planted groups", (fault, ruleId) => {
    const ofRule = findings.filter((finding) => finding.ruleId === ruleId);
    const planted = plantedGroups.get(fault as PlantedFault)!;
    // Multi-group faults (the same URL, a shared credential) are one finding naming all their groups.
    const found = ofRule.some((finding) => planted.every((groupId) => groupIdsOf(finding).has(groupId)));
    expect({ fault, found }).toEqual({ fault, found: true });
  });

  it("finds the live event the sandbox leaves uncovered", () => {
    const first = data.events[0];
    expect(first.status).toBe("live");
    expect(uncoveredEventIds).toContain(first.id);
    expect(findings.some((finding) => finding.ruleId === "live-event-uncovered" && finding.key === String(first.id))).toBe(true);
    expect(findings.some((finding) => finding.ruleId === "required-trigger-missing" && finding.key.startsWith(`${first.id}:`))).toBe(true);
  });

  it("gives every finding a key unique within its rule", () => {
    const keys = findings.map((finding) => `${finding.ruleId} ${finding.key}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("keeps every header value of the account out of the findings", () => {
    const text = JSON.stringify(findings);
    const values = new Set<string>();
    for (const group of data.groups) {
      for (const header of group.headers ?? []) values.add(header.value);
      for (const hook of group.webhooks ?? []) for (const header of hook.headers ?? []) values.add(header.value);
    }
    // Short constant values ("2", "ems") may occur in names by chance; credentials are long.
    const secrets = [...values].filter((value) => value.length >= 12);
    expect(secrets.length).toBeGreaterThan(10);
    for (const value of secrets) expect(text.includes(value)).toBe(false);
  });
});
