import { HEADER_NAME_MESSAGE, HEADER_VALUE_LINE_MESSAGE, isHeaderName, isHeaderValueLine } from "@/lib/http/header-rules";
import { z } from "zod";
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE } from "@/lib/text/invisible-characters";
import type { HeaderEdit, WebhookValues } from "@/lib/plans/edits";
import { MAX_PLAN_OPERATIONS, PLAN_TITLE_MAX } from "@/lib/plans/limits";

/**
 * The plan forms' shared fields (all strings in FormData), from which each action's own
 * `<action>.validation.ts` builds its schema, as the edits lib/plans/edits.ts takes. The EMS's
 * own rules (lengths, URL, lists) are checked there, with each field's message; these schemas only
 * give the inputs their shapes. Header rows are `header.<i>.key|action|value` (a header already on
 * the record: keep, replace or remove) and `newHeader.<i>.key|value` (one to add).
 */

export const planIdSchema = z.object({ planId: z.uuid("That plan does not exist.") });
/** A record's id as the EMS numbers them: a positive whole number of at most 32 bits (anything else names no record). */
export const emsId = (message: string) => z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);
export const recordId = z.coerce.number({ error: "That record does not exist." }).pipe(emsId("That record does not exist."));
export const checkbox = z.preprocess((value) => value === "on" || value === "true" || value === "1", z.boolean());
/** A plan's title is shown to the team (plans, audit log, alerts): nothing in it may read differently than it looks. */
export const title = z
  .string()
  .trim()
  .max(PLAN_TITLE_MAX, `A title is at most ${PLAN_TITLE_MAX} characters.`)
  .refine((text) => !hasInvisibleCharacters(text), `The title ${INVISIBLE_CHARACTERS_MESSAGE}`)
  .optional();
/** The longest header value a form takes (a value is sent with every delivery; servers refuse header lines past a few KB). */
export const HEADER_VALUE_MAX = 4096;
export const HEADER_VALUE_MESSAGE = `A header value is at most ${HEADER_VALUE_MAX.toLocaleString("en-US")} characters.`;

const MAX_EVENT_IDS = 5_000;
export const TOO_MANY_RECORDS = `A plan changes at most ${MAX_PLAN_OPERATIONS.toLocaleString("en-US")} records; narrow the selection.`;

/** "12, 15 17" → [12, 15, 17]; anything else in the field is one message. */
export const idList = z
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

export const plainText = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is at most ${max.toLocaleString("en-US")} characters.`)
    .refine((text) => !hasInvisibleCharacters(text), `${what} ${INVISIBLE_CHARACTERS_MESSAGE}`);

/**
 * The header rows' own rules, as field messages: a value of at most HEADER_VALUE_MAX characters, and
 * a new header's name that reads as it looks (others see it on the plan's page).
 */
export function headerRowProblems(fields: Record<string, unknown>, context: z.RefinementCtx): void {
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

export const webhookFields = z.object({
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

export function toWebhookValues(input: z.output<typeof webhookFields>, fields: Record<string, unknown>): WebhookValues {
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

/** The draft an edit replaces ("Edit the change"): its id, or none. */
export const replacesPlanId = z
  .string()
  .default("")
  .pipe(z.union([z.literal(""), z.uuid("That draft does not exist.")]))
  .transform((value) => value || undefined);

export const emailList = z
  .string()
  .max(10_000, "Too many addresses.")
  .transform((text) => text.split(/[\s,;]+/).filter(Boolean));
