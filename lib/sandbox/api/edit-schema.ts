import { z } from "zod";
import { EVENT_STATUSES, webhookSchema } from "./resources";

/**
 * The edits a person makes to an account in the EMS web app, as the admin endpoint takes them
 * (`POST {base}/__admin/edits`, lib/sandbox/README.md). Applied by data/edits.ts, chosen at random
 * by data/random-edits.ts. Strict objects: a misspelt field is a 400, not an edit silently ignored.
 */
const id = z.number().int().positive();
/** Who made the change; it becomes the webhook's updated_by (docs/ems-api.md §4.1a: a name or an email). */
const by = z.string().trim().min(1).max(255).optional();
/** An HTTP header name (RFC 9110 token), and a value on one line. */
const headerKey = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, { error: "A header key is 1 to 100 letters, digits or !#$%&'*+.^_`|~-" });
const headerValue = z
  .string()
  .max(4096)
  .regex(/^[^\r\n]*$/, { error: "A header value is one line" });
const webhookUrl = z.url({ protocol: /^https?$/, error: "Expected an http:// or https:// URL" }).max(2000);
const target = z.enum(["group", "webhook"]);

/** The fields a new webhook may be given; the rest take defaults (data/edits.ts). */
export const newWebhookSchema = webhookSchema
  .omit({ id: true, group_id: true, created_at: true, created_by: true, updated_at: true, updated_by: true })
  .extend({ name: z.string().trim().min(1).max(255), url: webhookUrl, event_ids: z.array(id).max(500) })
  .partial()
  .strict();

/** A new event as the web app's form makes it: a name, and what the webhook checks read (status, dates). */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "A date is YYYY-MM-DD" });
export const newEventSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    status: z.enum(EVENT_STATUSES).optional(),
    start_date: day.optional(),
    end_date: day.optional(),
    timezone: z.string().min(1).max(64).optional(),
  })
  .strict();

export const editSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("set-url"), webhookId: id, url: webhookUrl, by }).strict(),
  z.object({ kind: z.literal("set-enabled"), webhookId: id, enabled: z.boolean(), by }).strict(),
  z.object({ kind: z.literal("add-webhook"), groupId: id, webhook: newWebhookSchema.optional(), by }).strict(),
  z.object({ kind: z.literal("remove-webhook"), webhookId: id, by }).strict(),
  z.object({ kind: z.literal("set-header"), target, id, key: headerKey, value: headerValue, by }).strict(),
  z.object({ kind: z.literal("remove-header"), target, id, key: headerKey, by }).strict(),
  z.object({ kind: z.literal("rename-group"), groupId: id, name: z.string().trim().min(1).max(255), by }).strict(),
  z.object({ kind: z.literal("add-event"), event: newEventSchema, by }).strict(),
  z.object({ kind: z.literal("set-event-status"), eventId: id, status: z.enum(EVENT_STATUSES), by }).strict(),
  z.object({ kind: z.literal("set-notification-emails"), groupId: id, emails: z.array(z.email()).max(20), by }).strict(),
]);

export type Edit = z.output<typeof editSchema>;
/** An edit as a client sends it (`by` and the new webhook's fields optional). */
export type EditInput = z.input<typeof editSchema>;
export type EditKind = Edit["kind"];
export type NewWebhookFields = z.output<typeof newWebhookSchema>;
export type NewEventFields = z.output<typeof newEventSchema>;

export const MAX_RANDOM_EDITS = 50;

/** The body of `POST edits`: the account (its consumer key), then explicit edits and/or random ones. */
export const editsRequestSchema = z
  .object({
    account: z.string().min(1),
    edits: z.array(editSchema).min(1).max(100).optional(),
    random: z
      .object({ count: z.number().int().min(1).max(MAX_RANDOM_EDITS), seed: z.number().int() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((body) => body.edits !== undefined || body.random !== undefined, {
    message: "Send edits (a list of edits), random ({ count, seed }), or both.",
  });
