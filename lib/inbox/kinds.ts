/**
 * The kinds of inbox item (issue 37 §4), what each says and where it reaches a person by default.
 * Pure: the inbox page, the preferences form and the feed read the same table.
 */

export const INBOX_KINDS = [
  "plan_to_review",
  "drafted_fix_to_review",
  "plan_approved",
  "plan_rejected",
  "plan_applied",
  "plan_conflict",
  "plan_failed",
  "undo_without_review",
  "drift_on_applied",
] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export const isInboxKind = (value: string): value is InboxKind => (INBOX_KINDS as readonly string[]).includes(value);

/** Who made a drafted fix: a plan submitted without an author (issue 37 §2 drafts them). */
export const PORTAL_ON_BEHALF = "EMS Portal on behalf of the team";

export interface InboxKindInfo {
  /** The preferences form's label. */
  label: string;
  /**
   * Also by email unless the person chose otherwise. On for what waits for this person (a review)
   * and for what an owner must know happened without a second pair of eyes (an undo applied without
   * review); off for the outcomes of their own plans, which the inbox and the plan page already show.
   */
  email: boolean;
  /** The team's Slack is everyone's channel: nothing goes there unless someone asks for it. */
  slack: boolean;
  /** An email's or Slack message's subject, before the plan's title. */
  subject: string;
}

export const INBOX_KIND_INFO: Record<InboxKind, InboxKindInfo> = {
  plan_to_review: { subject: "Waits for your review", label: "A plan waits for your review", email: true, slack: false },
  drafted_fix_to_review: { subject: "A drafted fix waits for your review", label: "A drafted fix waits for your review", email: true, slack: false },
  plan_approved: { subject: "Approved", label: "Your plan was approved", email: false, slack: false },
  plan_rejected: { subject: "Rejected", label: "Your plan was rejected", email: false, slack: false },
  plan_applied: { subject: "Applied", label: "Your plan was applied", email: false, slack: false },
  plan_conflict: { subject: "Stopped on a conflict", label: "Your plan stopped on a conflict", email: false, slack: false },
  plan_failed: { subject: "Stopped: a step failed", label: "Your plan stopped: a step failed", email: false, slack: false },
  undo_without_review: { subject: "Undone without review", label: "An undo was applied without review (owners)", email: true, slack: false },
  drift_on_applied: { subject: "Changed again in the EMS", label: "Something you applied was changed again in the EMS", email: false, slack: false },
};

/** One occasion the inbox tells people of (lib/inbox/feed.ts `addInboxItems`). */
export interface InboxOccasion {
  teamId: string;
  kind: InboxKind;
  planId: string | null;
  planTitle: string;
  /** The account the plan changes: its tracker carries the team's Slack URL and the alerts' rows. */
  accountKey: string | null;
  /** Who made the move (never told); null for the portal itself (a sync, a drafted fix). */
  actorId: string | null;
  actorLabel: string | null;
  detail?: string | null;
  /** Who is told (the actor and non-members are dropped). */
  recipients: readonly (string | null)[];
  /** What makes this occasion one (with the kind and plan): a time, an outcome, a finding's key. */
  occasion: string;
}

/** What an item holds that its sentence is made of. */
export interface InboxItemFacts {
  kind: string;
  planTitle: string;
  actorLabel: string | null;
  detail: string | null;
}

/** The item's sentence, as the inbox shows it and an email or Slack message says it. */
export function inboxSentence(item: InboxItemFacts): string {
  const title = `“${item.planTitle}”`;
  const by = item.actorLabel ?? "someone";
  switch (item.kind as InboxKind) {
    case "plan_to_review":
      return `${by} sent the plan ${title} for your review.`;
    case "drafted_fix_to_review":
      return `${PORTAL_ON_BEHALF} drafted the fix ${title}; it waits for your review.`;
    case "plan_approved":
      return `${by} approved your plan ${title}.`;
    case "plan_rejected":
      return `${by} rejected your plan ${title}.`;
    case "plan_applied":
      return `Your plan ${title} was applied by ${by}.`;
    case "plan_conflict":
      return `Your plan ${title} stopped: a record changed in the EMS since it was made.`;
    case "plan_failed":
      return `Your plan ${title} stopped: a step failed.`;
    case "undo_without_review":
      return `${by} applied ${title} without a second approval (an undo within 24 hours of its plan).`;
    case "drift_on_applied":
      return `A record that your plan ${title} set was changed again in the EMS.`;
    default:
      return `An update on ${title}.`;
  }
}
