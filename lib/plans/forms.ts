import "server-only";
import { PlanStatus } from "./lifecycle";
import { parsePlanId } from "./plan-id";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import type { Actor } from "@/lib/access/actor";
import { WEBHOOK_FIELDS, type Webhook, type WebhookGroup } from "@/lib/ems";
import { loadRecord, type ListingFailure } from "@/lib/ems-access/shared-read";
import { loadSetup } from "@/lib/setup/load";
import { labelOf } from "@/lib/setup/setup-data";
import { prisma } from "@/lib/db/prisma";
import type { WebhookEditDefaults } from "./edits";
import { stepChangesOf } from "./store";

/**
 * What the plan forms start from: a record's fields as they are, header names only (a header value
 * never goes to a browser: the forms keep, replace or remove values, lib/plans/edits.ts), and the
 * account's groups to choose from.
 */

export interface WebhookFormData {
  kind: "ok";
  defaults: WebhookEditDefaults;
  groups: { id: number; name: string }[];
}

export async function accountGroups(actor: Actor): Promise<{ id: number; name: string }[]> {
  const setup = await loadSetup(actor);
  return setup.kind === "ok" ? setup.snapshot.data.groups.map((group) => ({ id: group.id, name: labelOf(group) })) : [];
}

export async function loadWebhookForm(actor: Actor, id: number): Promise<WebhookFormData | { kind: "not-found" } | ListingFailure> {
  const [outcome, groups] = await Promise.all([loadRecord(actor, "webhooks", id, { fields: [...WEBHOOK_FIELDS] }), accountGroups(actor)]);
  if (outcome.kind !== "ok") return outcome;
  if (!outcome.item) return { kind: "not-found" };
  const hook = outcome.item as Webhook;
  return {
    kind: "ok",
    defaults: {
      id: hook.id,
      name: hook.name ?? "",
      url: hook.url ?? "",
      groupId: hook.group_id ?? null,
      triggerObject: hook.trigger_object ?? "registrant",
      contentType: hook.content_type ?? "json",
      enabled: hook.enabled ?? true,
      onInsert: hook.trigger_on_insert ?? false,
      onUpdate: hook.trigger_on_update ?? false,
      onDelete: hook.trigger_on_delete ?? false,
      publicUser: hook.public_user ?? false,
      adminUser: hook.admin_user ?? false,
      apiCall: hook.api_call ?? false,
      anyEvent: hook.any_event ?? false,
      eventIds: hook.event_ids ?? [],
      notes: hook.notes ?? "",
      headerNames: (hook.headers ?? []).map((header) => header.key),
    },
    groups,
  };
}

/** A new webhook's form: the contract's defaults (docs/ems-api.md §8.1), in the group it was asked for. */
export async function loadNewWebhookForm(actor: Actor, groupId: number | null): Promise<WebhookFormData> {
  const groups = await accountGroups(actor);
  return {
    kind: "ok",
    defaults: {
      id: null,
      name: "",
      url: "https://",
      groupId: groupId !== null && groups.some((group) => group.id === groupId) ? groupId : null,
      triggerObject: "registrant",
      contentType: "json",
      enabled: true,
      onInsert: true,
      onUpdate: false,
      onDelete: false,
      publicUser: true,
      adminUser: true,
      apiCall: false,
      anyEvent: false,
      eventIds: [],
      notes: "",
      headerNames: [],
    },
    groups,
  };
}

export interface GroupFormData {
  kind: "ok";
  defaults: { id: number; name: string; emails: string; headerNames: string[] };
}

export async function loadGroupForm(actor: Actor, id: number): Promise<GroupFormData | { kind: "not-found" } | ListingFailure> {
  const outcome = await loadRecord(actor, "webhook-groups", id, { fields: ["id", "name", "headers", "notification_emails"] });
  if (outcome.kind !== "ok") return outcome;
  if (!outcome.item) return { kind: "not-found" };
  const group = outcome.item as WebhookGroup;
  return {
    kind: "ok",
    defaults: {
      id: group.id,
      name: group.name ?? "",
      emails: (group.notification_emails ?? []).join(", "),
      headerNames: (group.headers ?? []).map((header) => header.key),
    },
  };
}

/** `?plan=<id>` of a webhook's edit page ("Edit the change": the draft edited again), or null. */
export function draftParam(input: URLSearchParams | PageSearchParams): string | null {
  return parsePlanId(pageSearchParams(input).get("plan") ?? "");
}

/**
 * A draft's change of this webhook laid over its fields, for editing the draft (its author only, while
 * it is a draft): null when there is none. Header edits are not carried over: values are never read back.
 */
export async function draftChangesOf(actor: Actor, planId: string, webhookId: number): Promise<Partial<Webhook> | null> {
  const plan = await prisma.changePlan.findFirst({ where: { id: planId, teamId: actor.teamId, authorId: actor.userId, status: PlanStatus.draft }, select: { id: true } });
  if (!plan) return null;
  const stepChanges = await stepChangesOf(plan.id, "webhooks.update", webhookId);
  if (!stepChanges) return null;
  const { headers: _headers, ...changes } = stepChanges as Partial<Webhook>;
  void _headers;
  return changes;
}

/** The form's defaults with a draft's changes laid over them. */
export function withDraft(defaults: WebhookFormData["defaults"], changes: Partial<Webhook>): WebhookFormData["defaults"] {
  return {
    ...defaults,
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.url !== undefined ? { url: changes.url } : {}),
    ...(changes.group_id !== undefined ? { groupId: changes.group_id } : {}),
    ...(changes.trigger_object !== undefined ? { triggerObject: changes.trigger_object } : {}),
    ...(changes.content_type !== undefined ? { contentType: changes.content_type } : {}),
    ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
    ...(changes.trigger_on_insert !== undefined ? { onInsert: changes.trigger_on_insert } : {}),
    ...(changes.trigger_on_update !== undefined ? { onUpdate: changes.trigger_on_update } : {}),
    ...(changes.trigger_on_delete !== undefined ? { onDelete: changes.trigger_on_delete } : {}),
    ...(changes.public_user !== undefined ? { publicUser: changes.public_user } : {}),
    ...(changes.admin_user !== undefined ? { adminUser: changes.admin_user } : {}),
    ...(changes.api_call !== undefined ? { apiCall: changes.api_call } : {}),
    ...(changes.any_event !== undefined ? { anyEvent: changes.any_event } : {}),
    ...(changes.event_ids !== undefined ? { eventIds: changes.event_ids } : {}),
    ...(changes.notes !== undefined ? { notes: changes.notes ?? "" } : {}),
  };
}
