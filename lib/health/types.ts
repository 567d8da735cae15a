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

// Every check's id lives below the features (the lists' URL parser reads it too).
export { RULE_IDS, type RuleId } from "@/lib/setup/checks";
import type { RuleId } from "@/lib/setup/checks";

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
