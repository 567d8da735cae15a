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
