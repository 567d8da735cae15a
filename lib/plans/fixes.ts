import type { DraftableCheck } from "@/lib/health/policies";
import type { Finding, RuleId } from "@/lib/health/rules";
import type { GroupBulkEdit, WebhookBulkEdit } from "./bulk";

/**
 * Health's "Fix…" (issue 27 §2): the checks whose fix is mechanical draft it as a bulk edit over the
 * finding's records. Pure. The person still sees the plan, its diff and impact, and it goes through
 * review like any other; a check without a mechanical fix offers none.
 */
export interface DraftedFix {
  resource: "webhooks" | "webhook-groups";
  ids: number[];
  edit: WebhookBulkEdit | GroupBulkEdit;
  title: string;
}

const subjectIds = (finding: Finding, kind: "webhook" | "group") => [
  ...new Set(finding.subjects.filter((subject) => subject.kind === kind).map((subject) => subject.id)),
];

type FixOf = (finding: Finding, email: string) => DraftedFix | null;

/**
 * The checks whose fix is mechanical, keyed by the check's id (lib/health's `RuleId`): a check
 * renamed or removed makes its entry here fail the build instead of silently losing its "Fix…".
 */
const FIXES = {
  "plain-http-url": (finding) => ({ resource: "webhooks", ids: subjectIds(finding, "webhook"), edit: { kind: "use-https" }, title: "Switch http URLs to https" }),
  "group-without-notification-emails": (finding, email) => ({
    resource: "webhook-groups",
    ids: subjectIds(finding, "group"),
    edit: { kind: "add-notification-email", email },
    title: "Add a notification address",
  }),
  "duplicate-url-trigger": (finding) => {
    // Keep the first; disable the others that send the same thing to the same place.
    const [, ...duplicates] = subjectIds(finding, "webhook");
    return duplicates.length > 0 ? { resource: "webhooks", ids: duplicates, edit: { kind: "set-enabled", enabled: false }, title: "Disable duplicate webhooks" } : null;
  },
  "disabled-webhook-live-event": (finding) => ({
    resource: "webhooks",
    ids: subjectIds(finding, "webhook"),
    edit: { kind: "set-enabled", enabled: true },
    title: "Enable the webhook for its live event",
  }),
  "webhook-ended-events-only": (finding) => ({
    resource: "webhooks",
    ids: subjectIds(finding, "webhook"),
    edit: { kind: "set-enabled", enabled: false },
    title: "Disable a webhook whose events have ended",
  }),
} as const satisfies Partial<Record<RuleId, FixOf>>;

// Both ways with Health's list of checks that may draft their fix (lib/health/policies.ts, below
// plans): a fix added or removed here without it, or there without one here, fails the build.
type FixedChecks = keyof typeof FIXES;
const sameChecks: [Exclude<FixedChecks, DraftableCheck>, Exclude<DraftableCheck, FixedChecks>] extends [never, never] ? true : false = true;
void sameChecks;

const fixOf = (ruleId: string): FixOf | undefined => (Object.hasOwn(FIXES, ruleId) ? FIXES[ruleId as keyof typeof FIXES] : undefined);

/** The fix of `finding`, or null when its check has no mechanical one. `email`: the address a group without one gets. */
export function fixFor(finding: Finding, email: string): DraftedFix | null {
  return fixOf(finding.ruleId)?.(finding, email) ?? null;
}

/** Where Health's "Fix…" of a finding leads (null: its check has no mechanical fix). */
export function fixHref(finding: Pick<Finding, "ruleId" | "key">): string | null {
  if (!fixOf(finding.ruleId)) return null;
  return `/plans/new?${new URLSearchParams({ fix: finding.ruleId, key: finding.key }).toString()}`;
}

/** Where Health's "Fix all N" of a check leads (null: the check has no mechanical fix). */
export function fixAllHref(ruleId: string): string | null {
  if (!fixOf(ruleId)) return null;
  return `/plans/new?${new URLSearchParams({ fix: ruleId, key: ALL_FINDINGS }).toString()}`;
}

/** The `key` of "Fix all": every finding of the check, not one. */
export const ALL_FINDINGS = "*";

/**
 * "Fix all N" (issue 37 §2): every finding of a check in one fix, their records merged (each once),
 * the edit the check's fix makes (the same for each finding of a check, `email` aside). Null when
 * none of them has a fix. The records' names come from the findings.
 */
export function fixAll(findings: readonly Finding[], ruleId: string, email: string): (DraftedFix & { names: Map<number, string>; findings: number }) | null {
  let merged: (DraftedFix & { names: Map<number, string>; findings: number }) | null = null;
  const seen = new Set<number>();
  for (const finding of findings) {
    if (finding.ruleId !== ruleId) continue;
    const fix = fixFor(finding, email);
    if (!fix) continue;
    merged ??= { ...fix, ids: [], names: new Map(), findings: 0 };
    merged.findings += 1;
    for (const subject of finding.subjects) if (subject.name !== undefined) merged.names.set(subject.id, subject.name);
    for (const id of fix.ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      merged.ids.push(id);
    }
  }
  return merged;
}
