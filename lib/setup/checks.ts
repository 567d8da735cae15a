/**
 * Health's checks as the rest of the portal names them: their ids, titles, which kind of record each
 * one looks at, and the sentence for "none found". Here, below the features, because the lists'
 * URL parser (lib/listing/search-params.ts, `check=`), the saved views' descriptions and Health
 * itself (lib/health/rules.ts takes its titles from here) all read them. Pure and browser-safe.
 */

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

export function isRuleId(value: string): value is RuleId {
  return (RULE_IDS as readonly string[]).includes(value);
}

/** The kinds of record a finding names (lib/health/types.ts `FindingSubject`). */
export type CheckSubjectKind = "group" | "webhook" | "event";

export interface CheckNames {
  title: string;
  /**
   * The records the check is about: the kind of every finding's first subject, and the one list that
   * `check=` filters (a finding's other subjects, such as a group's first events, are context and
   * are capped, so they are not a set to list).
   */
  looksAt: CheckSubjectKind;
  /** The filtered list's empty state: no record fails the check. */
  noneFound: string;
}

export const CHECKS: Readonly<Record<RuleId, CheckNames>> = {
  "plain-http-url": { title: "Webhook URL is not HTTPS", looksAt: "webhook", noneFound: "No webhook sends to a plain HTTP address." },
  "required-trigger-missing": { title: "Live event misses a required trigger", looksAt: "event", noneFound: "No live event misses a required trigger." },
  "live-event-uncovered": { title: "Live event without any webhook", looksAt: "event", noneFound: "Every live event has a webhook." },
  "disabled-webhook-live-event": {
    title: "Disabled webhook set up for a live event",
    looksAt: "webhook",
    noneFound: "No disabled webhook is set up for a live event.",
  },
  "group-without-notification-emails": {
    title: "Group serving live events has no notification emails",
    looksAt: "group",
    noneFound: "No group serving live events lacks notification emails.",
  },
  "duplicate-url-trigger": { title: "Same URL and trigger in two groups", looksAt: "webhook", noneFound: "No URL and trigger are set up in two groups." },
  "insert-without-delete": { title: "Inserts sent without deletions", looksAt: "group", noneFound: "No group sends inserts without deletions." },
  "shared-credential-header": { title: "Same credential in several groups", looksAt: "group", noneFound: "No credential header is shared by several groups." },
  "webhook-ended-events-only": { title: "Webhook only serves ended events", looksAt: "webhook", noneFound: "No webhook serves only ended events." },
};
