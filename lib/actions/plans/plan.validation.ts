import { HEADER_NAME_MESSAGE, HEADER_VALUE_LINE_MESSAGE, isHeaderName, isHeaderValueLine } from "@/lib/http/header-rules";
import { z } from "zod";
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE } from "@/lib/text/invisible-characters";
import type { HeaderEdit, WebhookValues, GroupValues } from "@/lib/plans/edits";
import { BULK_KINDS, type WebhookBulkEdit, type GroupBulkEdit } from "@/lib/plans/bulk";
import { MAX_PLAN_OPERATIONS, PLAN_TITLE_MAX } from "@/lib/plans/limits";

/**
 * The plan forms' fields (all strings in FormData) as the edits lib/plans/edits.ts takes. The EMS's
 * own rules (lengths, URL, lists) are checked there, with each field's message; these schemas only
 * give the inputs their shapes. Header rows are `header.<i>.key|action|value` (a header already on
 * the record: keep, replace or remove) and `newHeader.<i>.key|value` (one to add).
 */

export const planIdSchema = z.object({ planId: z.uuid("That plan does not exist.") });
export const changeIdSchema = z.object({ changeId: z.uuid("That change does not exist.") });
/** A record's id as the EMS numbers them: a positive whole number of at most 32 bits (anything else names no record). */
const emsId = (message: string) => z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);
export const recordId = z.coerce.number({ error: "That record does not exist." }).pipe(emsId("That record does not exist."));
/** Putting a group back as change history says it was: the group, and the moment (ISO, UTC). */
export const groupBackToSchema = z.object({
  groupId: recordId,
  at: z.iso
    .datetime({ error: "Choose the moment to put the group back to, like 2026-11-20T14:02:00Z." })
    // A moment still to come (the end of today) is the group as history knows it now.
    .transform((value) => new Date(Math.min(new Date(value).getTime(), Date.now()))),
});
const checkbox = z.preprocess((value) => value === "on" || value === "true" || value === "1", z.boolean());
/** A plan's title is shown to the team (plans, audit log, alerts): nothing in it may read differently than it looks. */
const title = z
  .string()
  .trim()
  .max(PLAN_TITLE_MAX, `A title is at most ${PLAN_TITLE_MAX} characters.`)
  .refine((text) => !hasInvisibleCharacters(text), `The title ${INVISIBLE_CHARACTERS_MESSAGE}`)
  .optional();
/** The longest header value a form takes (a value is sent with every delivery; servers refuse header lines past a few KB). */
const HEADER_VALUE_MAX = 4096;
const HEADER_VALUE_MESSAGE = `A header value is at most ${HEADER_VALUE_MAX.toLocaleString("en-US")} characters.`;

const MAX_EVENT_IDS = 5_000;
const TOO_MANY_RECORDS = `A plan changes at most ${MAX_PLAN_OPERATIONS.toLocaleString("en-US")} records; narrow the selection.`;

/** "12, 15 17" → [12, 15, 17]; anything else in the field is one message. */
const idList = z
  .string()
  .default("")
  .transform((text, context) => {
    const parts = text.split(/[\s,]+/).filter(Boolean);
    if (parts.some((part) => !/^\d{1,10}$/.test(part) || Number(part) <= 0)) {
      context.addIssue({ code: "custom", message: "List event ids as whole numbers, separated by commas." });
      return z.NEVER;
    }
    // Every id must be an event of the account (§8.1): more than an account holds is a mistake.
    if (parts.length > MAX_EVENT_IDS) {
      context.addIssue({ code: "custom", message: `At most ${MAX_EVENT_IDS.toLocaleString("en-US")} events; to fire for every event, tick “Every event”.` });
      return z.NEVER;
    }
    return [...new Set(parts.map(Number))];
  });

const plainText = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is at most ${max.toLocaleString("en-US")} characters.`)
    .refine((text) => !hasInvisibleCharacters(text), `${what} ${INVISIBLE_CHARACTERS_MESSAGE}`);

/**
 * The header rows' own rules, as field messages: a value of at most HEADER_VALUE_MAX characters, and
 * a new header's name that reads as it looks (others see it on the plan's page).
 */
function headerRowProblems(fields: Record<string, unknown>, context: z.RefinementCtx): void {
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== "string") continue;
    if (/^(header|newHeader)\.\d+\.value$/.test(name)) {
      if (value.length > HEADER_VALUE_MAX) context.addIssue({ code: "custom", path: [name], message: HEADER_VALUE_MESSAGE });
      else if (!isHeaderValueLine(value)) context.addIssue({ code: "custom", path: [name], message: HEADER_VALUE_LINE_MESSAGE });
    }
    if (/^newHeader\.\d+\.key$/.test(name) && value.trim() !== "") {
      if (hasInvisibleCharacters(value)) context.addIssue({ code: "custom", path: [name], message: `The header name ${INVISIBLE_CHARACTERS_MESSAGE}` });
      else if (!isHeaderName(value.trim())) context.addIssue({ code: "custom", path: [name], message: HEADER_NAME_MESSAGE });
    }
  }
}

/** The header rows of a form, as edits; a row with an empty new name is no row. */
export function headerEditsOf(fields: Record<string, unknown>): HeaderEdit[] {
  const edits: HeaderEdit[] = [];
  for (let index = 0; index < 100; index++) {
    const key = fields[`header.${index}.key`];
    if (typeof key !== "string") break;
    const action = fields[`header.${index}.action`];
    const value = fields[`header.${index}.value`];
    if (action === "remove") edits.push({ key, action: "remove" });
    else if (action === "replace" && typeof value === "string" && value !== "") edits.push({ key, action: "replace", value });
    else edits.push({ key, action: "keep" });
  }
  for (let index = 0; index < 10; index++) {
    const key = fields[`newHeader.${index}.key`];
    const value = fields[`newHeader.${index}.value`];
    if (typeof key === "string" && key.trim() !== "") edits.push({ key: key.trim(), action: "add", value: typeof value === "string" ? value : "" });
  }
  return edits;
}

const webhookFields = z.object({
  title,
  name: plainText(255, "The name"),
  url: z.string().trim().max(2048, "A URL is at most 2,048 characters."),
  trigger_object: z.string().max(64),
  content_type: z.string().max(16),
  group_id: z
    .string()
    .default("")
    .transform((value) => (value === "" ? null : Number(value)))
    .pipe(emsId("That webhook group does not exist.").nullable()),
  enabled: checkbox,
  trigger_on_insert: checkbox,
  trigger_on_update: checkbox,
  trigger_on_delete: checkbox,
  public_user: checkbox,
  admin_user: checkbox,
  api_call: checkbox,
  any_event: checkbox,
  event_ids: idList,
  notes: plainText(2000, "The notes").default(""),
});

function toWebhookValues(input: z.output<typeof webhookFields>, fields: Record<string, unknown>): WebhookValues {
  const { notes, any_event, event_ids } = input;
  return {
    name: input.name,
    url: input.url,
    trigger_object: input.trigger_object,
    content_type: input.content_type,
    group_id: input.group_id,
    enabled: input.enabled,
    trigger_on_insert: input.trigger_on_insert,
    trigger_on_update: input.trigger_on_update,
    trigger_on_delete: input.trigger_on_delete,
    public_user: input.public_user,
    admin_user: input.admin_user,
    api_call: input.api_call,
    any_event,
    event_ids: any_event ? [] : event_ids,
    notes: notes.trim() === "" ? null : notes,
    headers: headerEditsOf(fields),
  };
}

/** The webhook edit form: every field it shows, as the webhook should be. */
const replacesPlanId = z
  .string()
  .default("")
  .pipe(z.union([z.literal(""), z.uuid("That draft does not exist.")]))
  .transform((value) => value || undefined);

export const webhookEditSchema = webhookFields
  .extend({ id: recordId, replacesPlanId })
  .loose()
  .superRefine(headerRowProblems)
  .transform((input) => ({ id: input.id, title: input.title, replacesPlanId: input.replacesPlanId, values: toWebhookValues(input, input as Record<string, unknown>) }));

/** The new-webhook form (the same fields, no id). */
export const webhookCreateSchema = webhookFields
  .loose()
  .superRefine(headerRowProblems)
  .transform((input) => ({ title: input.title, values: toWebhookValues(input, input as Record<string, unknown>) }));

export const webhookDuplicateSchema = z.object({
  id: recordId,
  title,
  group_id: z
    .string()
    .default("")
    .transform((value) => (value === "" ? null : Number(value)))
    .pipe(emsId("That webhook group does not exist.").nullable()),
  name: plainText(255, "The name").optional(),
});

export const webhookDeleteSchema = z.object({ id: recordId, title });

const emailList = z
  .string()
  .max(10_000, "Too many addresses.")
  .transform((text) => text.split(/[\s,;]+/).filter(Boolean));

export const groupEditSchema = z
  .looseObject({ id: recordId, title, name: plainText(255, "The name"), notification_emails: emailList })
  .superRefine(headerRowProblems)
  .transform((input): { id: number; title?: string; values: GroupValues } => ({
    id: input.id,
    title: input.title,
    values: { name: input.name, notification_emails: input.notification_emails, headers: headerEditsOf(input as Record<string, unknown>) },
  }));

/** A new group: its name, addresses and headers (every header row an addition). */
export const groupCreateSchema = z
  .looseObject({ title, name: plainText(255, "The name"), notification_emails: emailList })
  .superRefine(headerRowProblems)
  .transform((input): { title?: string; values: GroupValues & { name: string } } => ({
    title: input.title,
    values: { name: input.name, notification_emails: input.notification_emails, headers: headerEditsOf(input as Record<string, unknown>) },
  }));

export const groupDeleteSchema = z.object({ id: recordId, title });

/** A bulk edit over ids chosen by a listing, a coverage cell or a health finding. */
export const bulkSchema = z
  .object({
    title,
    resource: z.enum(["webhooks", "webhook-groups"], { error: "Choose what to change." }),
    ids: z
      .string()
      // Ids of at most 10 digits and a comma each: a longer field names more records than a plan holds.
      .max(MAX_PLAN_OPERATIONS * 20, TOO_MANY_RECORDS)
      .transform((text) => [...new Set(text.split(",").filter(Boolean).map(Number))])
      .pipe(
        z
          .array(emsId("The selection names a record that does not exist; choose the records again."))
          .min(1, "Nothing is selected.")
          .max(MAX_PLAN_OPERATIONS, TOO_MANY_RECORDS),
      ),
    edit: z.enum(BULK_KINDS, { error: "Choose a change." }),
    from: z.string().trim().max(255).default(""),
    to: z.string().trim().max(255).default(""),
    key: z
      .string()
      .trim()
      .refine((text) => !hasInvisibleCharacters(text), `The header name ${INVISIBLE_CHARACTERS_MESSAGE}`)
      .refine((text) => text === "" || isHeaderName(text), HEADER_NAME_MESSAGE)
      .default(""),
    value: z.string().max(HEADER_VALUE_MAX, HEADER_VALUE_MESSAGE).refine(isHeaderValueLine, HEADER_VALUE_LINE_MESSAGE).default(""),
    enabled: z.enum(["true", "false"]).default("true"),
    eventIds: idList,
    contentType: z.string().max(16).default("json"),
    // 0: none chosen (the edit that needs one says so).
    groupId: z.coerce
      .number({ error: "That webhook group does not exist." })
      .pipe(
        z
          .number({ error: "That webhook group does not exist." })
          .int("That webhook group does not exist.")
          .nonnegative("That webhook group does not exist.")
          .max(2_147_483_647, "That webhook group does not exist."),
      )
      .default(0),
    emails: emailList.default([]),
  })
  .transform((input, context): { title?: string; resource: "webhooks" | "webhook-groups"; ids: number[]; edit: WebhookBulkEdit | GroupBulkEdit } => {
    const fail = (path: string, message: string) => {
      context.addIssue({ code: "custom", path: [path], message });
      return z.NEVER;
    };
    const hostLike = /^[a-z0-9.-]+(:\d{1,5})?$/i;
    const edit = ((): WebhookBulkEdit | GroupBulkEdit => {
      switch (input.edit) {
        case "replace-host":
          if (!hostLike.test(input.from)) return fail("from", "Enter the host to replace, like old.example.com.");
          if (!hostLike.test(input.to)) return fail("to", "Enter the new host, like new.example.com.");
          return { kind: "replace-host", from: input.from, to: input.to };
        case "use-https":
          return { kind: "use-https" };
        case "set-header":
          if (input.key === "") return fail("key", "Name the header.");
          if (input.value === "") return fail("value", "Give the header a value.");
          return { kind: "set-header", key: input.key, value: input.value };
        case "remove-header":
          if (input.key === "") return fail("key", "Name the header to remove.");
          return { kind: "remove-header", key: input.key };
        case "set-enabled":
          return { kind: "set-enabled", enabled: input.enabled === "true" };
        case "add-events":
        case "remove-events":
          if (input.eventIds.length === 0) return fail("eventIds", "List at least one event id.");
          return { kind: input.edit, eventIds: input.eventIds };
        case "set-content-type":
          return { kind: "set-content-type", contentType: input.contentType };
        case "move-to-group":
          if (input.groupId <= 0) return fail("groupId", "Choose the group to move them to.");
          return { kind: "move-to-group", groupId: input.groupId };
        case "set-notification-emails":
          return { kind: "set-notification-emails", emails: input.emails };
        case "add-notification-email":
          if (input.emails.length !== 1) return fail("emails", "Enter one address to add.");
          return { kind: "add-notification-email", email: input.emails[0] };
      }
    })();
    const forGroups = edit.kind === "set-notification-emails" || edit.kind === "add-notification-email";
    if (forGroups !== (input.resource === "webhook-groups")) return fail("edit", forGroups ? "That change is for webhook groups." : "That change is for webhooks.");
    return { title: input.title, resource: input.resource, ids: input.ids, edit };
  });

export const rejectSchema = planIdSchema.extend({
  reason: z
    .string()
    .transform((reason) => reason.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(1, "Say why, so the author knows what to change.")
        .max(500, "Keep the reason under 500 characters.")
        .refine((text) => !hasInvisibleCharacters(text), `The reason ${INVISIBLE_CHARACTERS_MESSAGE}`),
    ),
});

export const planReviewSchema = z.object({ review: z.enum(["default", "on", "off"], { error: "Choose a setting." }) });
