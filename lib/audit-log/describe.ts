/**
 * The audit log in words: every action a writer records (lib/audit/log.ts), grouped for the
 * filter, and each record as a sentence with people's names ("Ada Lovelace changed Bob Builder
 * from Member to Admin"). Pure: the caller resolves names (lib/audit-log/entries.ts) and hands them in.
 *
 * Metadata is whatever the writer stored at the time, read defensively: an older record may lack a
 * field, and the sentence then says less rather than showing a key or an id.
 */
import type { AuditAction } from "@/lib/audit/log";
import { ruleById } from "@/lib/health/rules";
import { isTriggerKey, triggerLabel } from "@/lib/setup/triggers";
import { listingTitle } from "@/lib/listing/titles";
import { ROLE_LABELS, type TeamRole } from "@/lib/access/roles";
import { plural } from "@/lib/text/plural";

export interface AuditActionGroup {
  /** The filter's value for the whole group (no dot, so never mistaken for an action). */
  key: string;
  label: string;
  actions: readonly AuditAction[];
}

/** Every action in words (the CSV's "action" column): a new action does not compile without one. */
const LABELS: Record<AuditAction, string> = {
  "team.role_changed": "Changed a role",
  "team.member_removed": "Removed a member",
  "team.member_left": "Left the team",
  "team.joined": "Joined the team",
  "invitation.created": "Created an invitation",
  "invitation.revoked": "Withdrew an invitation",
  "team.two_factor_requirement_changed": "Changed the two-factor requirement",
  "auth.sign_up": "Signed up",
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Sign-in failed",
  "auth.sign_out_everywhere": "Signed out of all sessions",
  "auth.session_ended": "Ended a session",
  "auth.other_sessions_ended": "Signed out of other sessions",
  "auth.password_changed": "Changed password",
  "auth.two_factor_enrolment_started": "Started setting up two-factor sign-in",
  "auth.two_factor_enabled": "Turned on two-factor sign-in",
  "auth.two_factor_disabled": "Turned off two-factor sign-in",
  "auth.recovery_codes_regenerated": "Made new recovery codes",
  "auth.recovery_code_used": "Signed in with a recovery code",
  "auth.reauthenticated": "Confirmed their identity",
  "auth.reauthentication_failed": "Failed to confirm their identity",
  "credential.saved": "Saved API credentials",
  "credential.tested": "Tested API credentials",
  "credential.deleted": "Deleted API credentials",
  "view.shared": "Shared a view",
  "export.header_values_included": "Exported with header values",
  "webhook.header_value_revealed": "Revealed a header value",
  "health.muted": "Muted a health finding",
  "health.unmuted": "Unmuted a health finding",
  "health.policy_changed": "Changed what a health check does",
  "coverage.requirements_changed": "Changed the required triggers",
  "coverage.new_event_webhooks_changed": "Changed the webhooks every new event should have",
  "history.tracking_started": "Started tracking change history",
  "history.tracking_stopped": "Stopped tracking change history",
  "history.tracking_paused": "Paused tracking",
  "history.tracking_resumed": "Resumed tracking",
  "history.tracking_taken_over": "Took over tracking",
  "history.schedule_changed": "Changed the tracking schedule",
  "history.synced_now": "Synced change history now",
  "alerts.slack_url_set": "Set the Slack URL for alerts",
  "alerts.slack_url_cleared": "Removed the Slack URL for alerts",
  "plan.drafted": "Drafted a change plan",
  "plan.drafted_by_policy": "EMS Portal drafted a fix",
  "plan.submitted": "Sent a change plan for review",
  "plan.approved": "Approved a change plan",
  "plan.rejected": "Rejected a change plan",
  "plan.cancelled": "Cancelled a change plan",
  "plan.apply_started": "Started applying a change plan",
  "plan.applied": "Applied a change plan",
  "plan.drift_accepted": "Accepted a drift from an applied plan",
  "plan.apply_stopped": "A change plan stopped",
  "plan.review_setting_changed": "Changed the plan review setting",
  "plan.undo_applied_without_review": "Applied an undo without review",
  "inbox.preferences_changed": "Changed where their inbox reaches them",
};

/** How a re-authentication was made, in words (`auth.reauthenticated`'s `with`). */
const REAUTH_PROOF_WORDS = new Map([
  ["totp", " with an authenticator code"],
  ["password", " with their password"],
  ["password+totp", " with their password and an authenticator code"],
]);

/** Every action, grouped for the filter (a unit test checks each is in exactly one group). */
export const AUDIT_ACTION_GROUPS: readonly AuditActionGroup[] = [
  {
    key: "team",
    label: "Team and invitations",
    actions: [
      "team.role_changed",
      "team.member_removed",
      "team.member_left",
      "team.joined",
      "invitation.created",
      "invitation.revoked",
      "team.two_factor_requirement_changed",
    ],
  },
  {
    key: "sign-in",
    label: "Sign-in and security",
    actions: [
      "auth.sign_up",
      "auth.sign_in",
      "auth.sign_in_failed",
      "auth.sign_out_everywhere",
      "auth.session_ended",
      "auth.other_sessions_ended",
      "auth.password_changed",
      "auth.two_factor_enrolment_started",
      "auth.two_factor_enabled",
      "auth.two_factor_disabled",
      "auth.recovery_codes_regenerated",
      "auth.recovery_code_used",
      "auth.reauthenticated",
      "auth.reauthentication_failed",
    ],
  },
  { key: "credentials", label: "API credentials", actions: ["credential.saved", "credential.tested", "credential.deleted"] },
  { key: "views", label: "Views, exports and header values", actions: ["view.shared", "export.header_values_included", "webhook.header_value_revealed"] },
  {
    key: "monitoring",
    label: "Health, coverage, history and alerts",
    actions: [
      "health.muted",
      "health.unmuted",
      "health.policy_changed",
      "coverage.requirements_changed",
      "coverage.new_event_webhooks_changed",
      "history.tracking_started",
      "history.tracking_stopped",
      "history.tracking_paused",
      "history.tracking_resumed",
      "history.tracking_taken_over",
      "history.schedule_changed",
      "history.synced_now",
      "alerts.slack_url_set",
      "alerts.slack_url_cleared",
      "inbox.preferences_changed",
    ],
  },
  {
    key: "plans",
    label: "Changes to the EMS",
    actions: [
      "plan.drafted",
      "plan.drafted_by_policy",
      "plan.submitted",
      "plan.approved",
      "plan.rejected",
      "plan.cancelled",
      "plan.apply_started",
      "plan.applied",
      "plan.apply_stopped",
      "plan.review_setting_changed",
      "plan.drift_accepted",
      "plan.undo_applied_without_review",
    ],
  },
];

const ACTION_LABELS = new Map<string, string>(Object.entries(LABELS));

export const AUDIT_ACTIONS = Object.keys(LABELS) as AuditAction[];

export function isAuditAction(value: string): value is AuditAction {
  return ACTION_LABELS.has(value);
}

/** The action in words; an action this version does not know is "Other activity", never its key. */
export function actionLabel(action: string): string {
  return ACTION_LABELS.get(action) ?? "Other activity";
}

/** The actions a filter value stands for: one action, or every action of a group. */
export function actionsOfFilter(value: string): AuditAction[] | null {
  if (isAuditAction(value)) return [value];
  const group = AUDIT_ACTION_GROUPS.find((g) => g.key === value);
  return group ? [...group.actions] : null;
}

export function actionFilterLabel(value: string): string | null {
  if (isAuditAction(value)) return actionLabel(value);
  return AUDIT_ACTION_GROUPS.find((g) => g.key === value)?.label ?? null;
}

/** A piece of a sentence: plain words, a person's name, or a quoted name (a view's). */
export type SentencePart = { text: string; person?: true };

export interface DescribeInput {
  action: string;
  metadata: unknown;
  /** The actor's name as resolved, or null when nobody is known (a failed sign-in for an unknown address). */
  actorName: string | null;
  /** The email the record was written with (who tried to sign in, for a failed sign-in). */
  actorEmail: string | null;
  /** The subject's name when the record is about a person (`target` "user:<id>"). */
  subjectName: string | null;
}

function record(metadata: unknown): Record<string, unknown> {
  return metadata && typeof metadata === "object" && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : {};
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);
const count = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const role = (value: unknown): string | null => (typeof value === "string" && Object.hasOwn(ROLE_LABELS, value) ? ROLE_LABELS[value as TeamRole] : null);

function minutes(n: number | null): string {
  if (n === null) return "a new interval";
  if (n % 1440 === 0) return n === 1440 ? "every day" : `every ${n / 1440} days`;
  if (n % 60 === 0) return n === 60 ? "every hour" : `every ${n / 60} hours`;
  return `every ${plural(n, "minute")}`;
}

function triggers(value: unknown): string {
  const keys = Array.isArray(value) ? value.filter((k): k is string => typeof k === "string") : [];
  if (keys.length === 0) return "none";
  return keys.map((k) => (isTriggerKey(k) ? triggerLabel(k) : k.replace(/[_:.]+/g, " "))).join(", ");
}

/** "webhooks #1, #2 and every webhook of group #9", or "none". */
function newEventWords(value: unknown): string {
  const chosen = record(value);
  const ids = Array.isArray(chosen.webhookIds) ? chosen.webhookIds.filter((id): id is number => typeof id === "number") : [];
  const parts = [...(ids.length > 0 ? [`${ids.length === 1 ? "webhook" : "webhooks"} ${ids.map((id) => `#${id}`).join(", ")}`] : [])];
  if (typeof chosen.groupId === "number") parts.push(`every webhook of group #${chosen.groupId}`);
  return parts.length > 0 ? parts.join(" and ") : "none";
}

/** A check's policy (lib/health/policies.ts) as Settings names it. */
function policyWords(value: unknown): string {
  return value === "off" ? "Off" : value === "draft" ? "Draft the fix" : "Tell us";
}

/** " (“Webhook URL is not HTTPS”)", or nothing for a rule this version does not have. */
function ruleTitle(value: unknown): string {
  const id = text(value);
  const rule = id ? ruleById(id) : undefined;
  return rule ? ` (“${rule.title}”)` : "";
}

/**
 * The sentence for one record, as parts (a name is marked so the page can set it apart).
 * `sentenceText` joins them for the CSV.
 */
export function describeAuditRecord(input: DescribeInput): SentencePart[] {
  const m = record(input.metadata);
  const who: SentencePart = { text: input.actorName ?? "Someone", person: true };
  const subject: SentencePart = { text: input.subjectName ?? "a former member", person: true };
  const say = (...parts: (string | SentencePart)[]): SentencePart[] => parts.map((p) => (typeof p === "string" ? { text: p } : p)).filter((p) => p.text !== "");
  const fromActor = (...rest: (string | SentencePart)[]) => say(who, ...rest);

  switch (input.action) {
    case "auth.sign_up": {
      const via = text(m.placement);
      return fromActor(" created an account", via === "invitation" ? " from an invitation" : via === "join-team" ? " and joined the team" : "");
    }
    case "auth.sign_in": {
      const factor = text(m.secondFactor);
      return fromActor(" signed in", factor === "totp" ? " with an authenticator code" : factor === "recovery-code" ? " with a recovery code" : "");
    }
    case "auth.sign_in_failed":
      return say(
        "Sign-in failed for ",
        { text: input.actorEmail ?? input.actorName ?? "an unknown address", person: true },
        text(m.step) === "two-factor" ? " at the two-factor step" : "",
      );
    case "auth.sign_out_everywhere":
      return fromActor(" signed out of all their sessions");
    case "auth.session_ended":
      return fromActor(" ended one of their sessions");
    case "auth.other_sessions_ended": {
      const n = count(m.sessions);
      return fromActor(n === null ? " signed out of their other sessions" : ` signed out of ${plural(n, "other session")}`);
    }
    case "auth.password_changed":
      return fromActor(" changed their password");
    case "auth.two_factor_enrolment_started":
      return fromActor(" started setting up two-factor sign-in");
    case "auth.two_factor_enabled": {
      const ended = count(m.otherSessionsEnded);
      return fromActor(" turned on two-factor sign-in", ended ? ` and was signed out of ${plural(ended, "other session")}` : "");
    }
    case "auth.two_factor_disabled":
      return fromActor(" turned off two-factor sign-in", text(m.with) === "recovery-code" ? " with a recovery code" : "");
    case "auth.recovery_codes_regenerated":
      return fromActor(" made new recovery codes");
    case "auth.recovery_code_used": {
      const left = count(m.left);
      return fromActor(" signed in with a recovery code", left === null ? "" : ` (${plural(left, "code")} left)`);
    }
    case "auth.reauthenticated":
      return fromActor(" confirmed their identity", REAUTH_PROOF_WORDS.get(text(m.with) ?? "") ?? "");
    case "auth.reauthentication_failed":
      return fromActor(
        " failed to confirm their identity",
        text(m.with) === "totp" ? " (wrong authenticator code)" : text(m.with) === "password" ? " (wrong password)" : "",
      );

    case "credential.saved": {
      const where = [text(m.baseUrl) ? ` for ${text(m.baseUrl)}` : "", text(m.keyLast4) ? ` (key ending in ${text(m.keyLast4)})` : ""].join("");
      return fromActor(m.replaced === true ? " replaced their API credentials" : " saved API credentials", where);
    }
    case "credential.tested": {
      if (m.ok === true) {
        const groups = count(m.webhookGroupCount);
        return fromActor(" tested their API credentials: connected", groups === null ? "" : `, ${plural(groups, "webhook group")}`);
      }
      return fromActor(" tested their API credentials: it failed", text(m.error) ? ` (${text(m.error)})` : "");
    }
    case "credential.deleted":
      return fromActor(
        " deleted their API credentials",
        text(m.baseUrl) ? ` for ${text(m.baseUrl)}` : "",
        text(m.keyLast4) ? ` (key ending in ${text(m.keyLast4)})` : "",
      );

    case "invitation.created": {
      const as = role(m.role);
      const email = text(m.email);
      return email
        ? fromActor(" invited ", { text: email, person: true }, as ? ` as ${as}` : "")
        : fromActor(" created an invitation link", as ? ` for a new ${as}` : "");
    }
    case "invitation.revoked": {
      const as = role(m.role);
      const email = text(m.email);
      return email
        ? fromActor(" withdrew the invitation for ", { text: email, person: true }, as ? ` (${as})` : "")
        : fromActor(" withdrew an invitation link", as ? ` for a new ${as}` : "");
    }
    case "team.joined": {
      const as = role(m.role);
      return say(
        input.subjectName ? subject : who,
        " joined the team",
        as ? ` as ${as}` : "",
        text(m.via) === "email-domain" ? " (their email domain is the team’s)" : "",
      );
    }
    case "team.role_changed": {
      const from = role(m.from);
      const to = role(m.to);
      return from && to ? fromActor(" changed ", subject, ` from ${from} to ${to}`) : fromActor(" changed the role of ", subject);
    }
    case "team.member_removed":
      return fromActor(" removed ", subject, " from the team");
    case "team.member_left":
      return fromActor(" left the team");
    case "team.two_factor_requirement_changed":
      return fromActor(m.required === true ? " made two-factor sign-in compulsory for the team" : " made two-factor sign-in optional for the team");

    case "view.shared": {
      const name = text(m.name);
      const page = text(m.page) ? listingTitle(text(m.page)!)?.toLowerCase() : undefined;
      return fromActor(" shared ", name ? `the view “${name}”` : "a view", page ? ` of ${page}` : "", " with the team");
    }
    case "export.header_values_included": {
      const what = text(m.resource) ? listingTitle(text(m.resource)!)?.toLowerCase() : undefined;
      const format = text(m.format) === "json" ? "JSON" : text(m.format) === "csv" ? "CSV" : null;
      return fromActor(" exported with header values", what ? `: ${what}` : "", format ? ` as ${format}` : "");
    }
    case "webhook.header_value_revealed": {
      const header = text(m.header);
      const groupId = count(m.groupId);
      const group = text(m.groupName) ? `“${text(m.groupName)}”` : groupId === null ? null : `${groupId}`;
      const webhookId = count(m.webhookId);
      const webhook = text(m.webhookName) ? `“${text(m.webhookName)}”` : webhookId === null ? null : `${webhookId}`;
      return fromActor(
        header ? ` revealed the value of the header ${header}` : " revealed a header value",
        webhook ? ` of the webhook ${webhook}` : "",
        group ? ` ${webhook ? "in" : "of"} the webhook group ${group}` : "",
      );
    }

    case "health.muted":
      return fromActor(" muted a health finding", ruleTitle(m.ruleId), text(m.reason) ? `, because “${text(m.reason)}”` : "");
    case "health.unmuted":
      return fromActor(" unmuted a health finding", ruleTitle(m.ruleId));
    case "health.policy_changed":
      return fromActor(" set what a health check does", ruleTitle(m.ruleId), ` from “${policyWords(m.from)}” to “${policyWords(m.to)}”`);
    case "coverage.requirements_changed":
      return fromActor(` changed the required triggers from ${triggers(m.before)} to ${triggers(m.after)}`);
    case "coverage.new_event_webhooks_changed":
      return fromActor(` set the webhooks every new event should have to ${newEventWords(m.after)}`);
    case "history.tracking_started": {
      const account = text(m.account);
      return fromActor(
        " started tracking the change history",
        account ? ` of ${account}` : "",
        count(m.intervalMinutes) === null ? "" : `, ${minutes(count(m.intervalMinutes))}`,
      );
    }
    case "history.tracking_stopped":
      return fromActor(" stopped tracking", text(m.account) ? ` ${text(m.account)}` : " an account", " and deleted its history");
    case "history.tracking_paused":
      return fromActor(" paused tracking", text(m.account) ? ` of ${text(m.account)}` : "");
    case "history.tracking_resumed":
      return fromActor(" resumed tracking", text(m.account) ? ` of ${text(m.account)}` : "");
    case "history.tracking_taken_over":
      return fromActor(" took over tracking", text(m.account) ? ` of ${text(m.account)}` : "", " with their own credentials");
    case "history.schedule_changed":
      return fromActor(` changed the tracking schedule from ${minutes(count(m.from))} to ${minutes(count(m.to))}`);
    case "history.synced_now": {
      const status = text(m.status);
      const outcome =
        status === "ok"
          ? ": done"
          : status === "failed"
            ? ": it failed"
            : status === "paced"
              ? ": held back to save credits"
              : status === "busy"
                ? ": one was already running"
                : "";
      return fromActor(" synced the change history now", outcome);
    }
    case "alerts.slack_url_set":
      return fromActor(m.replaced === true ? " replaced the Slack URL for alerts" : " set the Slack URL for alerts", text(m.label) ? ` (${text(m.label)})` : "");
    case "alerts.slack_url_cleared":
      return fromActor(" removed the Slack URL for alerts", text(m.label) ? ` (${text(m.label)})` : "");
    case "plan.drafted":
      return fromActor(m.reverts ? " drafted a plan to undo a change plan" : " drafted a change plan", planWords(m));
    case "plan.drafted_by_policy":
      // Nobody acted: the team's policy for the check did, after a sync.
      return say(
        { text: "EMS Portal", person: true },
        " drafted a fix for the team and sent it for review",
        ruleTitle(m.check),
        planWords(m),
        typeof m.findings === "number" ? `, for ${plural(m.findings, "finding")}` : "",
      );
    case "plan.submitted":
      return fromActor(" sent a change plan for review", planWords(m));
    case "plan.approved":
      return fromActor(" approved a change plan", planWords(m));
    case "plan.rejected":
      return fromActor(" rejected a change plan", planWords(m), text(m.reason) ? `, because “${text(m.reason)}”` : "");
    case "plan.cancelled":
      return fromActor(" cancelled a change plan", planWords(m));
    case "plan.apply_started":
      return fromActor(" started applying a change plan", planWords(m), " to the EMS");
    case "plan.applied":
      return fromActor(" applied a change plan", planWords(m), " to the EMS");
    case "plan.apply_stopped":
      return fromActor("'s change plan stopped", planWords(m), text(m.reason) ? `: ${text(m.reason)}` : "");
    case "plan.drift_accepted": {
      // Names only (the field and the record), never a value: a header's value is a secret.
      const kind = m.kind === "group" ? "group" : "webhook";
      const record = typeof m.recordId === "number" ? ` on ${kind} #${m.recordId}${text(m.recordName) ? ` “${text(m.recordName)}”` : ""}` : "";
      // The field's label is stored with the record (audit-log cannot import plans' labels).
      const what = text(m.field) ? `the change of “${text(m.fieldLabel) ?? text(m.field)}”` : "the deletion";
      return fromActor(` accepted ${what}${record} made in the EMS after change plan`, planWords(m));
    }
    case "plan.review_setting_changed":
      return fromActor(
        m.required === true
          ? " required a second person's approval for change plans"
          : m.required === false
            ? " let owners and admins approve their own change plans"
            : " reset the plan review setting to the default",
      );
    case "plan.undo_applied_without_review":
      return fromActor(" applied an undo without a second approval", planWords(m), " (it puts back a plan applied in the last 24 hours)");
    case "inbox.preferences_changed":
      return fromActor(
        " chose where their inbox reaches them",
        typeof m.byEmail === "number" && typeof m.bySlack === "number" ? `: ${plural(m.byEmail, "kind")} by email, ${plural(m.bySlack, "kind")} in Slack` : "",
      );
    default:
      return fromActor(" did something this version of the portal does not describe");
  }
}

/** “Fix plain http URLs” (12 changes). */
function planWords(m: Record<string, unknown>): string {
  const title = typeof m.title === "string" && m.title ? ` “${m.title}”` : "";
  const operations = typeof m.operations === "number" ? ` (${plural(m.operations, "change")})` : "";
  return `${title}${operations}`;
}

export function sentenceText(parts: readonly SentencePart[]): string {
  return parts.map((p) => p.text).join("");
}
