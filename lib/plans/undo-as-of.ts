import "server-only";
import type { Actor } from "@/lib/access/actor";
import { accountKey } from "@/lib/ems-access/account-key";
import { SafeError } from "@/lib/errors";
import { requireHistoryReader } from "@/lib/history/access";
import { trackerForActor } from "@/lib/history/as-of";
import { stateWithSecretsAsOf } from "@/lib/history/store";
import { formatDateTime } from "@/lib/time/format";
import { editsBackTo, pastMembers } from "./back-to";
import { ownCredential, recordsNow, storeDraft } from "./draft";
import { operationsFor, type RecordsNow } from "./edits";

/**
 * Undo "as of" a time (issue 27 §2): a plan that puts a group and its webhooks back as change
 * history says they were at `at` (lib/plans/back-to.ts says how), header values included (history
 * keeps them encrypted: lib/history/store.ts). Drafted against the records as the EMS holds them now,
 * so its diff and conflict checks are today's; reviewed and applied like any plan.
 *
 * The group must still exist: a group deleted since would come back with a new id, and its
 * webhooks would have to name that id before it exists.
 */

function both(first: RecordsNow, second: RecordsNow): RecordsNow {
  return { webhook: (id) => first.webhook(id) ?? second.webhook(id), group: (id) => first.group(id) ?? second.group(id) };
}

export async function draftGroupBackTo(actor: Actor, groupId: number, at: Date, context: { ip?: string } = {}): Promise<{ planId: string; operations: number }> {
  const credential = await ownCredential(actor);
  const tracker = await trackerForActor(actor);
  if (!tracker) throw new SafeError("Change history is off for your account: there is no past to put the group back to.", "as_of_untracked");
  await requireHistoryReader(actor, tracker.id);
  const past = await stateWithSecretsAsOf(tracker.id, at);
  if (past.kind !== "ok") throw new SafeError("Change history began after that time: nothing is known of the group then.", "as_of_before_history");
  const then = past.records.get(`group:${groupId}`);
  if (!then) throw new SafeError("The group did not exist at that time: there is nothing to put back.", "as_of_missing");

  // The group now (with its webhooks' ids) and the webhooks it had then, wherever they are now.
  const thenIds = new Set(pastMembers(past.records, groupId).map((record) => record.id));
  const first = await recordsNow(actor, credential, { webhooks: thenIds, groups: new Set([groupId]) }, false);
  const group = first.group(groupId);
  if (!group) throw new SafeError("The group is no longer in the EMS: it cannot be put back from here. Create it again, then its webhooks.", "as_of_group_gone");
  // The webhooks it has now but did not have then, each read whole (a deletion keeps what it
  // deletes, for its own undo), and the groups they came from.
  const newcomers = new Set((group.webhooks ?? []).map((hook) => hook.id).filter((id) => !thenIds.has(id)));
  const homes = new Set(
    [...newcomers].map((id) => past.records.get(`webhook:${id}`)?.state.group_id).filter((home): home is number => typeof home === "number" && home !== groupId),
  );
  const records = newcomers.size > 0 ? both(first, await recordsNow(actor, credential, { webhooks: newcomers, groups: homes }, false)) : first;

  const { edits, headersUnknown } = editsBackTo(groupId, past.records, {
    group,
    webhook: (id) => records.webhook(id),
    groupExists: (id) => records.group(id) !== undefined,
  });
  const name = group.name ?? then.name ?? `#${groupId}`;
  const unknownNote = headersUnknown.length > 0 ? ` (header values of ${headersUnknown.length} not recorded: left as they are)` : "";
  return storeDraft(
    actor,
    { title: `Put group “${name}” back as of ${formatDateTime(at, "UTC")} UTC${unknownNote}`.slice(0, 200) },
    operationsFor(edits, records),
    accountKey(credential.baseUrl, credential.consumerKey),
    context,
  );
}
