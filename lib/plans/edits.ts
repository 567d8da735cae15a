import { HEADER_NAME_MESSAGE, HEADER_VALUE_LINE_MESSAGE, isHeaderName, isHeaderValueLine } from "@/lib/http/header-rules";
import { z } from "zod";
import type { EmsHeader, NewWebhook, NewWebhookGroup, Webhook, WebhookChanges, WebhookGroup, WebhookGroupChanges } from "@/lib/ems";
import { TRIGGER_OBJECTS, WEBHOOK_CONTENT_TYPES } from "@/lib/ems/contract";
import { FieldErrorsError } from "@/lib/errors";
import { hasInvisibleCharacters } from "@/lib/text/invisible-characters";
import { groupBulkChanges, webhookBulkChanges, type GroupBulkEdit, type WebhookBulkEdit } from "./bulk";
import { changedFields, NOT_WRITABLE, without, type DraftOperation } from "./operations";

/**
 * What a person asks for when drafting (issue 27 §2), and the operations it becomes against the
 * records as they are. Pure. The rules of docs/ems-api.md §8 are checked here first, so a form gets
 * its field messages before anything is planned; the EMS's own 422 still decides when applied.
 *
 * Header values are write-only: an edit says per header keep, replace (with a new value) or remove,
 * and may add new ones. Because a list sent replaces the whole list (§8.1), the operation sends
 * every header that stays, with the values the record holds: they come from the EMS's read, never
 * from the browser.
 */

export type HeaderEdit =
  { key: string; action: "keep" } | { key: string; action: "remove" } | { key: string; action: "replace"; value: string } | { key: string; action: "add"; value: string };

/**
 * A webhook's editable fields, as a form sends them (headers as edits). `exactHeaders` sets the whole
 * list, values included: only the server uses it (undo puts back a list it recorded); no form field
 * maps to it (lib/actions/plans/*.validation.ts builds the values field by field).
 */
export type WebhookValues = Omit<WebhookChanges, "headers"> & { headers?: HeaderEdit[]; exactHeaders?: EmsHeader[] };
export type GroupValues = Omit<WebhookGroupChanges, "headers"> & { headers?: HeaderEdit[]; exactHeaders?: EmsHeader[] };

export type PlanEdit =
  | { kind: "webhook.update"; id: number; values: WebhookValues }
  | { kind: "webhook.create"; values: WebhookValues & { name: string; url: string; trigger_object: string } }
  | { kind: "webhook.duplicate"; id: number; groupId: number | null; name?: string }
  | { kind: "webhook.delete"; id: number }
  | { kind: "group.update"; id: number; values: GroupValues }
  | { kind: "group.create"; values: GroupValues & { name: string } }
  | { kind: "group.delete"; id: number }
  | { kind: "webhooks.bulk"; ids: number[]; edit: WebhookBulkEdit }
  | { kind: "groups.bulk"; ids: number[]; edit: GroupBulkEdit };

/** A webhook's fields as the edit form starts from them (header names only: values never go to a browser). */
export interface WebhookEditDefaults {
  /** null: a new webhook. */
  id: number | null;
  name: string;
  url: string;
  groupId: number | null;
  triggerObject: string;
  contentType: string;
  enabled: boolean;
  onInsert: boolean;
  onUpdate: boolean;
  onDelete: boolean;
  publicUser: boolean;
  adminUser: boolean;
  apiCall: boolean;
  anyEvent: boolean;
  eventIds: number[];
  notes: string;
  headerNames: string[];
}

/** A rule of §8 broken by an edit: the field as the form names it, and what to do. */
export interface EditProblem {
  field: string;
  message: string;
}

/** Every problem of the edits at once: a form shows each next to its field (the first per field). */
export class EditProblemsError extends FieldErrorsError {
  constructor(readonly problems: EditProblem[]) {
    const fieldErrors: Record<string, string> = {};
    for (const problem of problems) fieldErrors[problem.field] ??= problem.message;
    super(
      fieldErrors,
      problems.length === 1
        ? problems[0].message
        : `${problems.length} things need another look: ${problems
            .map((problem) => problem.message)
            .slice(0, 3)
            .join(" ")}`,
    );
    this.name = "EditProblemsError";
  }
}

const codePoints = (text: string) => [...text].length;
const CONTROL = /[\u0000-\u001f\u007f]/;

const urlRule = z.string().refine((value) => {
  // The URL parser would quietly drop or percent-encode these; the EMS would be sent the raw text.
  if (codePoints(value) > 2048 || CONTROL.test(value) || /\s/.test(value) || hasInvisibleCharacters(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}, "Enter an absolute http or https URL of at most 2,048 characters, with no spaces or control characters.");

/** The §8 rules for one webhook's values (only the fields present are checked). */
export function webhookProblems(values: WebhookChanges, prefix = ""): EditProblem[] {
  const problems: EditProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field: `${prefix}${field}`, message });
  if (values.name !== undefined && (codePoints(values.name.trim()) < 1 || codePoints(values.name) > 255)) add("name", "Give it a name of 1 to 255 characters.");
  if (values.url !== undefined && !urlRule.safeParse(values.url).success)
    add("url", "Enter an absolute http or https URL of at most 2,048 characters, with no spaces or control characters.");
  if (values.trigger_object !== undefined && !(TRIGGER_OBJECTS as readonly string[]).includes(values.trigger_object))
    add("trigger_object", "Choose a trigger object from the list.");
  if (values.content_type !== undefined && !(WEBHOOK_CONTENT_TYPES as readonly string[]).includes(values.content_type)) add("content_type", "Choose json or post.");
  if (values.event_ids?.some((id) => !Number.isInteger(id) || id <= 0)) add("event_ids", "Event ids are positive whole numbers.");
  for (const field of ["fields", "post_field_data"] as const) {
    if (values[field]?.some((entry) => entry.trim() === "" || codePoints(entry) > 64)) add(field, "Each entry is 1 to 64 characters.");
  }
  if (values.custom_fields?.some((entry) => [entry.key, entry.type, entry.value].some((part) => part.trim() === "" || codePoints(part) > 255))) {
    add("custom_fields", "Each custom field needs a key, a type and a value of at most 255 characters.");
  }
  problems.push(...headerProblems(values.headers, prefix));
  return problems;
}

function headerProblems(headers: readonly EmsHeader[] | undefined, prefix: string): EditProblem[] {
  if (!headers) return [];
  const seen = new Set<string>();
  for (const header of headers) {
    if (!isHeaderName(header.key)) return [{ field: `${prefix}headers`, message: `${HEADER_NAME_MESSAGE} “${header.key}” is not.` }];
    if (!isHeaderValueLine(header.value)) return [{ field: `${prefix}headers`, message: `${HEADER_VALUE_LINE_MESSAGE} The value of “${header.key}” is not.` }];
    const lower = header.key.toLowerCase();
    if (seen.has(lower)) return [{ field: `${prefix}headers`, message: `The header “${header.key}” is there twice (names ignore case).` }];
    seen.add(lower);
  }
  return [];
}

export function groupProblems(values: WebhookGroupChanges, prefix = ""): EditProblem[] {
  const problems: EditProblem[] = [];
  if (values.name !== undefined && (codePoints(values.name.trim()) < 1 || codePoints(values.name) > 255))
    problems.push({ field: `${prefix}name`, message: "Give it a name of 1 to 255 characters." });
  const emails = values.notification_emails;
  if (emails) {
    if (emails.length > 50) problems.push({ field: `${prefix}notification_emails`, message: "At most 50 notification addresses." });
    const bad = emails.find((email) => !z.email().safeParse(email).success);
    if (bad !== undefined) problems.push({ field: `${prefix}notification_emails`, message: `“${bad}” is not an email address.` });
  }
  problems.push(...headerProblems(values.headers, prefix));
  return problems;
}

/** The header list after `edits`: kept ones with the values the record holds, replaced, removed, added. */
export function applyHeaderEdits(current: readonly EmsHeader[], edits: readonly HeaderEdit[]): EmsHeader[] {
  const byKey = new Map(edits.map((edit) => [edit.key.toLowerCase(), edit]));
  const kept: EmsHeader[] = [];
  for (const header of current) {
    const edit = byKey.get(header.key.toLowerCase());
    if (!edit || edit.action === "keep") kept.push({ key: header.key, value: header.value });
    else if (edit.action === "replace") kept.push({ key: header.key, value: edit.value });
  }
  const known = new Set(current.map((header) => header.key.toLowerCase()));
  for (const edit of edits) if (edit.action === "add" && !known.has(edit.key.toLowerCase())) kept.push({ key: edit.key.trim(), value: edit.value });
  return kept;
}

/** The records the edits are about, as the EMS holds them now (header values included). */
export interface RecordsNow {
  webhook(id: number): Webhook | undefined;
  group(id: number): WebhookGroup | undefined;
}

function resolveValues<T extends { headers?: HeaderEdit[]; exactHeaders?: EmsHeader[] }>(
  values: T,
  currentHeaders: readonly EmsHeader[],
): Omit<T, "headers" | "exactHeaders"> & { headers?: EmsHeader[] } {
  const { headers, exactHeaders, ...rest } = values;
  if (exactHeaders) return { ...rest, headers: exactHeaders.map((header) => ({ key: header.key, value: header.value })) };
  return headers ? { ...rest, headers: applyHeaderEdits(currentHeaders, headers) } : rest;
}

const notFound = (kind: string, id: number, field = "id"): EditProblem => ({ field, message: `The ${kind} #${id} is not in this account (any more).` });

/**
 * The operations `edits` make of the records as they are now; problems (broken rules, records that
 * are gone) throw EditProblemsError with every problem at once. An edit that changes nothing makes
 * no operation.
 */
export function operationsFor(edits: readonly PlanEdit[], records: RecordsNow): DraftOperation[] {
  const operations: DraftOperation[] = [];
  const problems: EditProblem[] = [];
  for (const edit of edits) {
    switch (edit.kind) {
      case "webhook.update": {
        const hook = records.webhook(edit.id);
        if (!hook) {
          problems.push(notFound("webhook", edit.id));
          break;
        }
        const after = resolveValues(edit.values, hook.headers ?? []);
        const changes = changedFields(hook as Record<string, unknown>, after as WebhookChanges);
        problems.push(...webhookProblems(changes));
        if (changes.group_id != null && !records.group(changes.group_id)) problems.push(notFound("webhook group", changes.group_id, "group_id"));
        if (Object.keys(changes).length > 0) operations.push({ operation: "webhooks.update", recordId: hook.id, before: hook, changes });
        break;
      }
      case "webhook.create": {
        const values = resolveValues(edit.values, []) as NewWebhook;
        problems.push(...webhookProblems(values));
        if (values.group_id != null && !records.group(values.group_id)) problems.push(notFound("webhook group", values.group_id, "group_id"));
        operations.push({ operation: "webhooks.create", before: null, changes: values });
        break;
      }
      case "webhook.duplicate": {
        const hook = records.webhook(edit.id);
        if (!hook) {
          problems.push(notFound("webhook", edit.id));
          break;
        }
        if (edit.groupId !== null && !records.group(edit.groupId)) problems.push(notFound("webhook group", edit.groupId, "group_id"));
        operations.push({ operation: "webhooks.create", before: null, changes: duplicateOf(hook, edit.groupId, edit.name) });
        break;
      }
      case "webhook.delete": {
        const hook = records.webhook(edit.id);
        if (!hook) problems.push(notFound("webhook", edit.id));
        else operations.push({ operation: "webhooks.delete", recordId: hook.id, before: hook, changes: {} });
        break;
      }
      case "group.update": {
        const group = records.group(edit.id);
        if (!group) {
          problems.push(notFound("webhook group", edit.id));
          break;
        }
        const after = resolveValues(edit.values, group.headers ?? []);
        const record = without(group, ["webhooks"]);
        const changes = changedFields(record as Record<string, unknown>, after as WebhookGroupChanges);
        problems.push(...groupProblems(changes));
        if (Object.keys(changes).length > 0) operations.push({ operation: "webhook-groups.update", recordId: group.id, before: record, changes });
        break;
      }
      case "group.create": {
        const values = resolveValues(edit.values, []) as NewWebhookGroup;
        problems.push(...groupProblems(values));
        operations.push({ operation: "webhook-groups.create", before: null, changes: values });
        break;
      }
      case "group.delete": {
        const group = records.group(edit.id);
        if (!group) problems.push(notFound("webhook group", edit.id));
        else if ((group.webhooks ?? []).length > 0)
          problems.push({ field: "id", message: `The group “${group.name ?? group.id}” still has webhooks: move or delete them first (the EMS refuses).` });
        else {
          operations.push({ operation: "webhook-groups.delete", recordId: group.id, before: without(group, ["webhooks"]), changes: {} });
        }
        break;
      }
      case "webhooks.bulk": {
        for (const id of new Set(edit.ids)) {
          const hook = records.webhook(id);
          if (!hook) {
            problems.push(notFound("webhook", id, "ids"));
            continue;
          }
          const changes = webhookBulkChanges(hook, edit.edit);
          if (!changes) continue;
          problems.push(...webhookProblems(changes, `#${id} `));
          operations.push({ operation: "webhooks.update", recordId: id, before: hook, changes });
        }
        if (edit.edit.kind === "move-to-group" && !records.group(edit.edit.groupId)) problems.push(notFound("webhook group", edit.edit.groupId, "group_id"));
        break;
      }
      case "groups.bulk": {
        for (const id of new Set(edit.ids)) {
          const group = records.group(id);
          if (!group) {
            problems.push(notFound("webhook group", id, "ids"));
            continue;
          }
          const changes = groupBulkChanges(group, edit.edit);
          if (!changes) continue;
          problems.push(...groupProblems(changes, `#${id} `));
          operations.push({ operation: "webhook-groups.update", recordId: id, before: without(group, ["webhooks"]), changes });
        }
        break;
      }
    }
  }
  if (problems.length > 0) throw new EditProblemsError(problems);
  return operations;
}

/** A copy of a webhook for another group: every writable field, header values included. */
function duplicateOf(hook: Webhook, groupId: number | null, name?: string): NewWebhook {
  const fields = without(hook, NOT_WRITABLE);
  return {
    ...(fields as NewWebhook),
    name: name ?? `${hook.name ?? `Webhook ${hook.id}`} (copy)`,
    url: hook.url ?? "",
    trigger_object: hook.trigger_object ?? "registrant",
    group_id: groupId,
  };
}
