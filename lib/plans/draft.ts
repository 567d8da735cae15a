import "server-only";
import type { Actor } from "@/lib/access/actor";
import { assertRecentPassword } from "@/lib/access/recent-auth";
import { auditByActor } from "@/lib/audit/log";
import { prisma } from "@/lib/db/prisma";
import { getEmsClient, WEBHOOK_FIELDS, type EmsClient, type EmsCredential, type EmsHeader, type Webhook, type WebhookGroup } from "@/lib/ems";
import { accountKey } from "@/lib/ems-access/account-key";
import { loadOwnCredential, NoCredentialError } from "@/lib/ems-access/credential";
import { failureOf } from "@/lib/ems-access/shared-read";
import { ForbiddenError, SafeError } from "@/lib/errors";
import { admitted } from "@/lib/admission";
import { loadSetup } from "@/lib/setup/load";
import type { SetupData } from "@/lib/setup/setup-data";
import { visibleText } from "@/lib/text/invisible-characters";
import { assertRoomForPlan, lockTeamPlans } from "./caps";
import { describeOperation } from "./diff";
import { operationsFor, type PlanEdit, type RecordsNow } from "./edits";
import { resourceOf, verbOf, without, type DraftOperation } from "./operations";
import { appliedOperations, insertPlan, stepChanges, stepOf } from "./store";
import { inverseOperations } from "./undo";
import { MAX_PLAN_OPERATIONS, PLAN_TITLE_MAX } from "./limits";
import { PlanStatus } from "./lifecycle";
import { planFor } from "./plan-access";

/**
 * Drafting a plan (issue 27 §2): a person's edits become operations against the records as the EMS
 * holds them now, stored as a draft of their team for the account their own credential reads.
 *
 * Who may draft: any member who holds credentials for the account (owners and admins approve and
 * apply: lib/plans/review.ts, apply.ts). The records come from the EMS with header values (a header
 * kept as it is is sent with the value the EMS holds, never one from the browser):
 * - a few records (a webhook's or a group's page): each read now, 1 credit each;
 * - a bulk edit: the account's setup as Health reads it (shared for EMS_COVERAGE_CACHE_SECONDS).
 *   A record changed in the EMS since is caught when the plan is applied: its `updated_at` moved,
 *   and that step stops as a conflict.
 */

/** Records read one by one up to this many; beyond it the whole setup is read once. */
const DIRECT_READS = 25;
export { MAX_PLAN_OPERATIONS };

export class PlanTooLargeError extends SafeError {
  constructor(count: number) {
    super(
      `These edits make ${count.toLocaleString("en-US")} changes; a plan holds at most ${MAX_PLAN_OPERATIONS.toLocaleString("en-US")}. Narrow the selection.`,
      "plan_too_large",
    );
  }
}

export class NothingToChangeError extends SafeError {
  constructor() {
    super("These edits change nothing: every record already is that way.", "plan_empty");
  }
}

function referencedIds(edits: readonly PlanEdit[]): { webhooks: Set<number>; groups: Set<number> } {
  const webhooks = new Set<number>();
  const groups = new Set<number>();
  for (const edit of edits) {
    if (edit.kind === "webhook.update" || edit.kind === "webhook.delete" || edit.kind === "webhook.duplicate") webhooks.add(edit.id);
    if (edit.kind === "group.update" || edit.kind === "group.delete") groups.add(edit.id);
    if (edit.kind === "webhooks.bulk") edit.ids.forEach((id) => webhooks.add(id));
    if (edit.kind === "groups.bulk") edit.ids.forEach((id) => groups.add(id));
    const group =
      edit.kind === "webhook.duplicate"
        ? edit.groupId
        : "values" in edit && "group_id" in edit.values
          ? edit.values.group_id
          : edit.kind === "webhooks.bulk" && edit.edit.kind === "move-to-group"
            ? edit.edit.groupId
            : null;
    if (typeof group === "number") groups.add(group);
  }
  return { webhooks, groups };
}

const readOptions = { waitForRateLimit: true } as const;

async function readDirectly(client: EmsClient, ids: { webhooks: Set<number>; groups: Set<number> }, teamId: string): Promise<RecordsNow> {
  const budget = { kind: "write" as const, teamId };
  const hooks = new Map<number, Webhook>();
  const groups = new Map<number, WebhookGroup>();
  await Promise.all([
    ...[...ids.webhooks].map(async (id) => {
      const { item } = await client.getOne("webhooks", id, { fields: [...WEBHOOK_FIELDS] }, { ...readOptions, budget });
      if (item) hooks.set(id, item as Webhook);
    }),
    ...[...ids.groups].map(async (id) => {
      const { item } = await client.getOne("webhook-groups", id, { expand: ["webhooks"] }, { ...readOptions, budget });
      if (item) groups.set(id, item as WebhookGroup);
    }),
  ]);
  return { webhook: (id) => hooks.get(id), group: (id) => groups.get(id) };
}

/**
 * The records `ids` names, from the setup as Health reads it (shared, frozen objects): a webhook is
 * copied (with its group's id) only when asked for, and only the webhooks named are indexed (an
 * index of every webhook of a 20,000-webhook account was 20,000 entries more for each draft, two
 * drafts at once on one instance).
 */
async function readSetupRecords(actor: Actor, ids: { webhooks: ReadonlySet<number> }): Promise<RecordsNow> {
  const setup = await loadSetup(actor);
  if (setup.kind === "no-credentials") throw new NoCredentialError();
  if (setup.kind !== "ok") throw new SafeError(`The account's setup could not be read: ${setup.message} Nothing was planned.`, "plan_setup_unreadable");
  return setupRecords(setup.snapshot.data, ids);
}

/** The records of a setup already read (a sync's, a Health report's): see readSetupRecords. */
export function setupRecords(data: SetupData, ids: { webhooks: ReadonlySet<number> }): RecordsNow {
  const hooks = new Map<number, { hook: Webhook; groupId: number }>();
  const groups = new Map<number, WebhookGroup>();
  for (const group of data.groups) {
    groups.set(group.id, group);
    for (const hook of group.webhooks ?? []) if (ids.webhooks.has(hook.id)) hooks.set(hook.id, { hook, groupId: group.id });
  }
  const webhook = (id: number) => {
    const found = hooks.get(id);
    if (!found) return undefined;
    return { ...found.hook, group_id: found.hook.group_id ?? found.groupId };
  };
  return { webhook, group: (id) => groups.get(id) };
}

/** The title a plan gets when its author gives none: its one operation, or how many. */
export function defaultTitle(operations: readonly DraftOperation[]): string {
  if (operations.length === 1) return describeOperation(operations[0]).sentence;
  return `${operations.length.toLocaleString("en-US")} changes`;
}

/**
 * A title as stored: a person's is checked by the form (lib/actions/plans/*.validation.ts); one the
 * portal makes ("Undo “…”", "… (planned again)", a change of a record named in the EMS) may run past
 * the limit, and is shortened rather than refused.
 */
export function fitTitle(title: string): string {
  const points = [...visibleText(title).trim()];
  if (points.length <= PLAN_TITLE_MAX) return points.join("");
  const kept = points.slice(0, PLAN_TITLE_MAX - 1).join("");
  return `${kept.trimEnd()}…`;
}

export interface DraftInput {
  title?: string;
  edits: readonly PlanEdit[];
  /** The plan this one undoes (lib/plans/undo.ts). */
  revertsPlanId?: string;
  /** A draft of the actor's this one replaces (its edit): cancelled with the new one's creation. */
  replacesPlanId?: string;
  /**
   * The account the edits' record ids are of (a plan planned again, a change of the history): the
   * drafter's own credential must read that account, or the ids would name other records.
   */
  forAccount?: string;
}

/** The records `ids` names, as the EMS holds them now: read one by one when few, else the setup. */
export async function recordsNow(actor: Actor, credential: EmsCredential, ids: { webhooks: Set<number>; groups: Set<number> }, bulk: boolean): Promise<RecordsNow> {
  const direct = ids.webhooks.size + ids.groups.size <= DIRECT_READS && !bulk;
  try {
    return direct ? await readDirectly(getEmsClient(credential), ids, actor.teamId) : await readSetupRecords(actor, ids);
  } catch (error) {
    if (error instanceof SafeError) throw error;
    const failure = failureOf(error);
    throw new SafeError(
      `The records could not be read from the EMS: ${"message" in failure ? failure.message : "no credentials"} Nothing was planned.`,
      "plan_read_failed",
    );
  }
}

/** The actor's own credential: plans read and write with it, never a teammate's. */
export async function ownCredential(actor: Actor): Promise<EmsCredential> {
  const credential = await loadOwnCredential(actor);
  if (!credential) throw new NoCredentialError();
  return credential;
}

/**
 * Whether the edits carry a header value someone typed. Drafting answers things about such a value:
 * whether it is new on a record that exists ("These edits change nothing", a webhook left out of a
 * bulk edit), and, on any record, whether another group already sends it (the impact's "Header
 * “X-Api-Key” has the same value in 2 groups"). So a session that may not read header values (a
 * stale one) must not be able to try values against the account's. `exactHeaders` are the server's
 * own (undo puts back recorded values): nobody types them.
 */
export function typesHeaderValue(edits: readonly PlanEdit[]): boolean {
  return edits.some((edit) => {
    if (edit.kind === "webhooks.bulk") return edit.edit.kind === "set-header";
    if (edit.kind !== "webhook.update" && edit.kind !== "group.update" && edit.kind !== "webhook.create" && edit.kind !== "group.create") return false;
    return (edit.values.headers ?? []).some((header) => header.action === "replace" || header.action === "add");
  });
}

/** Drafts a plan from edits; throws EditProblemsError (each field's message) or a SafeError. */
export async function draftPlan(actor: Actor, input: DraftInput, context: { ip?: string } = {}): Promise<{ planId: string; operations: number }> {
  if (typesHeaderValue(input.edits)) assertRecentPassword(actor);
  // A bulk edit (or a plan drafted again, which may hold thousands) reads the whole setup and makes
  // up to 5,000 operations: heavy work, admitted (lib/admission.ts) or refused with when to retry.
  if (isLarge(input.edits)) return admitted("drafting", actor.userId, () => draftNow(actor, input, context));
  return draftNow(actor, input, context);
}

/** Edits that read the account's whole setup rather than a few records. */
const isLarge = (edits: readonly PlanEdit[]) => edits.length > DIRECT_READS || edits.some((edit) => edit.kind.endsWith(".bulk"));

async function draftNow(actor: Actor, input: DraftInput, context: { ip?: string }): Promise<{ planId: string; operations: number }> {
  const credential = await ownCredential(actor);
  const account = accountKey(credential.baseUrl, credential.consumerKey);
  if (input.forAccount !== undefined && input.forAccount !== account) {
    throw new ForbiddenError("Your API credentials are for another EMS account than these records'. Save credentials for that account to plan this.");
  }
  const records = await recordsNow(
    actor,
    credential,
    referencedIds(input.edits),
    input.edits.some((edit) => edit.kind.endsWith(".bulk")),
  );
  return storeDraft(actor, input, operationsFor(input.edits, records), account, context);
}

/**
 * Drafts the plan that undoes an applied (or partly applied) plan of the team: the inverse of its
 * applied steps (lib/plans/undo.ts), each against the record as it is now (its "before" on the new
 * plan's page, and the `updated_at` its apply expects). It goes through the same review.
 */
export async function draftUndoPlan(actor: Actor, planId: string, context: { ip?: string } = {}): Promise<{ planId: string; operations: number; cannot: number }> {
  // Up to 5,000 inverse operations, their records read: heavy work like any large draft.
  return admitted("drafting", actor.userId, () => draftUndoNow(actor, planId, context));
}

async function draftUndoNow(actor: Actor, planId: string, context: { ip?: string }): Promise<{ planId: string; operations: number; cannot: number }> {
  // Steps applied, no undo already, the person's credential for the plan's account: lifecycle.ts "undo".
  const plan = await planFor("undo", actor, planId, { title: true });
  const credential = await ownCredential(actor);
  const applied = await appliedOperations(planId);
  const { operations, cannot } = inverseOperations(applied);
  const ids = { webhooks: new Set<number>(), groups: new Set<number>() };
  for (const op of operations) if (op.recordId !== undefined) (resourceOf(op.operation) === "webhooks" ? ids.webhooks : ids.groups).add(op.recordId);
  const records = await recordsNow(actor, credential, ids, false);
  const current = operations.map((op) => {
    if (op.recordId === undefined) return op;
    const now = resourceOf(op.operation) === "webhooks" ? records.webhook(op.recordId) : records.group(op.recordId);
    return now ? { ...op, before: resourceOf(op.operation) === "webhooks" ? now : without(now, ["webhooks"]) } : { ...op, before: null };
  });
  const gone = current.filter((op) => op.recordId !== undefined && verbOf(op.operation) === "update" && op.before === null);
  if (gone.length > 0)
    throw new SafeError(`${gone.length} of the records this plan changed are gone from the EMS: undo cannot put them back as they were.`, "plan_undo_gone");
  const stored = await storeDraft(actor, { title: `Undo “${plan.title}”`, revertsPlanId: plan.id }, current, plan.accountKey, context);
  return { ...stored, cannot: cannot.length };
}

/**
 * How long storing a plan may hold its transaction: 5,000 steps go in ten statements of 500
 * (lib/plans/store.ts), longer than the default 5 s on a busy instance.
 */
const STORE_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

/** Stores drafted operations as a plan of the actor's team (also undo's way in). */
export async function storeDraft(
  actor: Actor,
  input: Pick<DraftInput, "title" | "revertsPlanId" | "replacesPlanId">,
  operations: readonly DraftOperation[],
  account: string,
  context: { ip?: string } = {},
): Promise<{ planId: string; operations: number }> {
  if (operations.length === 0) throw new NothingToChangeError();
  if (operations.length > MAX_PLAN_OPERATIONS) throw new PlanTooLargeError(operations.length);
  const title = fitTitle(input.title ?? "") || fitTitle(defaultTitle(operations));
  const planId = await prisma.$transaction(async (tx) => {
    // A replacement takes its draft's place: it adds none, so it needs neither the count nor its lock.
    if (!input.replacesPlanId) {
      await lockTeamPlans(tx, actor.teamId);
      await assertRoomForPlan(tx, actor);
    }
    if (input.replacesPlanId) {
      // Only a draft, of this team, by this person: anything else is not theirs to replace.
      const replaced = await tx.changePlan.updateMany({
        where: { id: input.replacesPlanId, teamId: actor.teamId, authorId: actor.userId, status: PlanStatus.draft },
        data: { status: PlanStatus.cancelled, stopReason: "Replaced by an edited draft." },
      });
      if (replaced.count !== 1) throw new SafeError("That draft can no longer be edited: it was sent for review, or it is not yours.", "plan_not_draft");
    }
    const id = await insertPlan(
      { teamId: actor.teamId, accountKey: account, title, authorId: actor.userId, revertsPlanId: input.revertsPlanId ?? null, steps: operations.map(stepOf) },
      tx,
    );
    await auditByActor(
      actor,
      {
        action: "plan.drafted",
        target: id,
        ip: context.ip,
        metadata: { title, operations: operations.length, ...(input.revertsPlanId ? { reverts: input.revertsPlanId } : {}) },
      },
      tx,
    );
    return id;
  }, STORE_TRANSACTION);
  return { planId, operations: operations.length };
}

/** A stored operation as the edit that asks for the same end state (header lists whole, with their values). */
function editOf(op: DraftOperation): PlanEdit {
  const changes = op.changes as Record<string, unknown>;
  const { headers, ...rest } = changes;
  const values = { ...rest, ...(headers ? { exactHeaders: headers as EmsHeader[] } : {}) };
  const webhooks = resourceOf(op.operation) === "webhooks";
  switch (verbOf(op.operation)) {
    case "create":
      return webhooks
        ? { kind: "webhook.create", values: values as Extract<PlanEdit, { kind: "webhook.create" }>["values"] }
        : { kind: "group.create", values: values as Extract<PlanEdit, { kind: "group.create" }>["values"] };
    case "delete":
      return webhooks ? { kind: "webhook.delete", id: op.recordId! } : { kind: "group.delete", id: op.recordId! };
    default:
      return webhooks ? { kind: "webhook.update", id: op.recordId!, values } : { kind: "group.update", id: op.recordId!, values };
  }
}

/**
 * Re-plan (after a conflict or a failure): the steps not applied yet, drafted again against the
 * records as they are now: same end state, a fresh diff, fresh expectations, and review again.
 */
export async function draftReplan(actor: Actor, planId: string, context: { ip?: string } = {}): Promise<{ planId: string; operations: number }> {
  const plan = await planFor("replan", actor, planId, { title: true });
  // The changes are all it needs: the before-states (most of a step's bytes) stay unread.
  const remaining: PlanEdit[] = [];
  for await (const step of stepChanges(planId, prisma, { state: { notIn: ["applied", "skipped"] } })) {
    remaining.push(editOf({ operation: step.operation, recordId: step.recordId ?? undefined, changes: step.changes, before: null }));
  }
  return draftPlan(actor, { title: `${plan.title} (planned again)`, edits: remaining, forAccount: plan.accountKey }, context);
}
