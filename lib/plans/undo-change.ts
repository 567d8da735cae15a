import "server-only";
import type { Actor } from "@/lib/access/actor";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { prisma } from "@/lib/db/prisma";
import type { EmsHeader } from "@/lib/ems";
import { ForbiddenError, NotFoundError, SafeError } from "@/lib/errors";
import { requireHistoryReader } from "@/lib/history/access";
import { changeAad } from "@/lib/history/store";
import { draftPlan } from "./draft";
import type { PlanEdit } from "./edits";
import { NOT_WRITABLE, without } from "./operations";

/**
 * Undo of one change of the Changes feed (issue 27 §2): a plan that puts the record back as the
 * change found it, drafted against the record as it is now (so its diff and conflict check are of
 * today's record), reviewed like any plan.
 * - a field changed: that field back to its value before (a header list with its values, from the
 *   change's encrypted record: lib/history/store.ts);
 * - a record added: its deletion;
 * - a record removed: created again from its last known state (the EMS gives it a new id).
 * Events cannot be changed through the API: their changes cannot be undone here.
 */

type ChangeSecrets = { before: [string, string][] | null; after: [string, string][] | null };

const headersOf = (pairs: [string, string][] | null): EmsHeader[] => (pairs ?? []).map(([key, value]) => ({ key, value }));

/** The writable fields of a record's stored (masked) state, with its header values from `pairs`. */
function recreated(state: Record<string, unknown>, pairs: [string, string][] | null, groupId: number | null): Record<string, unknown> {
  const fields = without(state, [...NOT_WRITABLE, "headers"]);
  return { ...fields, ...(pairs ? { exactHeaders: headersOf(pairs) } : {}), ...(groupId !== null && "url" in fields ? { group_id: groupId } : {}) };
}

export async function draftUndoChange(actor: Actor, changeId: string, context: { ip?: string } = {}): Promise<{ planId: string; operations: number }> {
  const change = await prisma.setupChange.findFirst({ where: { id: changeId, teamId: actor.teamId } });
  if (!change) throw new NotFoundError("That change is not in your team's history.");
  // Whoever may read the tracker's history may ask; drafting checks the account of their credential.
  await requireHistoryReader(actor, change.trackerId);
  if (change.kind === "event") throw new SafeError("Events cannot be changed through the EMS's API: this change cannot be undone here.", "undo_event");
  const secrets = change.secretCiphertext ? (JSON.parse(decryptSecret(change.secretCiphertext, changeAad(change.id))) as ChangeSecrets) : null;
  const webhook = change.kind === "webhook";
  const label = `${webhook ? "webhook" : "group"} “${change.recordName ?? change.recordId}”`;
  let edit: PlanEdit;
  if (change.change === "added") {
    edit = webhook ? { kind: "webhook.delete", id: change.recordId } : { kind: "group.delete", id: change.recordId };
  } else if (change.change === "removed") {
    const values = recreated((change.before ?? {}) as Record<string, unknown>, secrets?.before ?? null, change.groupId);
    edit = webhook
      ? { kind: "webhook.create", values: values as Extract<PlanEdit, { kind: "webhook.create" }>["values"] }
      : { kind: "group.create", values: values as Extract<PlanEdit, { kind: "group.create" }>["values"] };
  } else if (change.field) {
    const field = change.field;
    if (field === "headers" && !secrets) throw new SafeError("The header values before this change were not recorded: it cannot be undone.", "undo_no_values");
    // A header list comes back whole, with the values it had (recorded encrypted with the change).
    const values = field === "headers" ? { exactHeaders: headersOf(secrets!.before) } : { [field]: change.before ?? null };
    edit = webhook ? { kind: "webhook.update", id: change.recordId, values } : { kind: "group.update", id: change.recordId, values };
  } else {
    throw new ForbiddenError("This change cannot be undone.");
  }
  // The change's record ids are of the tracked account: only a credential for it may plan them.
  const tracker = await prisma.changeTracker.findUniqueOrThrow({ where: { id: change.trackerId }, select: { accountKey: true } });
  return draftPlan(actor, { title: `Undo a change of ${label}`, edits: [edit], forAccount: tracker.accountKey }, context);
}
