import type { SetupData, TriggerKey } from "@/lib/setup/setup-data";

export type Severity = "error" | "warning" | "notice";

export const SEVERITY_ORDER: readonly Severity[] = ["error", "warning", "notice"];

export interface RuleContext {
  /** the checks' clock: "ended" and "live" are judged against its UTC date */
  now: Date;
  /** triggers every live event must have an enabled webhook for */
  requiredTriggers: readonly TriggerKey[];
}

/** A record a finding is about: ids and names only, never a header value. */
export interface FindingSubject {
  kind: "group" | "webhook" | "event";
  id: number;
  name?: string;
  /** a webhook's group */
  groupId?: number;
}

/**
 * Every check's id (lib/health/rules.ts defines one check for each, checked there): the type a
 * finding's `ruleId` has, so a table keyed by check (lib/plans/fixes.ts) stops compiling when a
 * check is renamed or removed, instead of silently losing its entry.
 */
export const RULE_IDS = [
  "plain-http-url",
  "required-trigger-missing",
  "live-event-uncovered",
  "disabled-webhook-live-event",
  "group-without-notification-emails",
  "duplicate-url-trigger",
  "insert-without-delete",
  "shared-credential-header",
  "webhook-ended-events-only",
] as const;
export type RuleId = (typeof RULE_IDS)[number];

export interface Finding {
  ruleId: RuleId;
  severity: Severity;
  /**
   * Stable and unique within the rule, made of ids, URLs and trigger keys only: a muted finding
   * stays muted while unrelated data changes.
   */
  key: string;
  /** one sentence naming the records */
  message: string;
  subjects: FindingSubject[];
}

export interface HealthRule {
  id: RuleId;
  severity: Severity;
  title: string;
  /** why it matters, in plain words */
  why: string;
  /** how to fix it, concretely */
  fix: string;
  check(data: SetupData, context: RuleContext): Finding[];
}
