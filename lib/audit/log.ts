import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import type { Actor } from "@/lib/access/actor";

export type AuditAction =
  | "auth.sign_up"
  | "auth.sign_in"
  | "auth.sign_in_failed"
  | "auth.sign_out_everywhere"
  | "auth.session_ended"
  | "auth.other_sessions_ended"
  | "auth.password_changed"
  | "auth.two_factor_enrolment_started"
  | "auth.two_factor_enabled"
  | "auth.two_factor_disabled"
  | "auth.recovery_codes_regenerated"
  | "auth.recovery_code_used"
  | "auth.reauthenticated"
  | "auth.reauthentication_failed"
  | "credential.saved"
  | "credential.tested"
  | "credential.deleted"
  | "invitation.created"
  | "invitation.revoked"
  | "team.joined"
  | "team.role_changed"
  | "team.member_removed"
  | "team.member_left"
  | "team.two_factor_requirement_changed"
  | "view.shared"
  | "export.header_values_included"
  | "webhook.header_value_revealed"
  | "health.muted"
  | "health.unmuted"
  | "health.policy_changed"
  | "coverage.requirements_changed"
  | "coverage.new_event_webhooks_changed"
  | "history.tracking_started"
  | "history.tracking_stopped"
  | "history.tracking_paused"
  | "history.tracking_resumed"
  | "history.tracking_taken_over"
  | "history.schedule_changed"
  | "history.synced_now"
  | "alerts.slack_url_set"
  | "alerts.slack_url_cleared"
  | "plan.drafted"
  | "plan.drafted_by_policy"
  | "plan.submitted"
  | "plan.approved"
  | "plan.rejected"
  | "plan.cancelled"
  | "plan.apply_started"
  | "plan.applied"
  | "plan.apply_stopped"
  | "plan.review_setting_changed"
  | "plan.drift_accepted"
  | "plan.undo_applied_without_review"
  | "inbox.preferences_changed";

export interface AuditEntry {
  action: AuditAction;
  teamId?: string | null;
  actorId?: string | null;
  actorEmail?: string | null;
  target?: string | null;
  ip?: string | null;
  /** Never a secret: callers pass ids, names and outcomes only. */
  metadata?: Prisma.InputJsonValue;
}

/** Appends one audit record. Pass `tx` inside a transaction (one connection on the embedded DB). */
export async function audit(entry: AuditEntry, tx?: TransactionClient): Promise<void> {
  const db = tx ?? prisma;
  await db.auditLog.create({
    data: {
      action: entry.action,
      teamId: entry.teamId ?? null,
      actorId: entry.actorId ?? null,
      actorEmail: entry.actorEmail ?? null,
      target: entry.target ?? null,
      ip: entry.ip ?? null,
      metadata: entry.metadata,
    },
  });
}

/** The record of something a signed-in person did in their own team. */
export function auditByActor(
  actor: Pick<Actor, "teamId" | "userId" | "email">,
  entry: Omit<AuditEntry, "teamId" | "actorId" | "actorEmail">,
  tx?: TransactionClient,
): Promise<void> {
  return audit({ ...entry, teamId: actor.teamId, actorId: actor.userId, actorEmail: actor.email }, tx);
}
