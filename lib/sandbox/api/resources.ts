import { z } from "zod";

/**
 * Schemas carry no global ids (a Next dev reload would register them twice); api/openapi.ts names
 * them in its own registry.
 *
 * The resources of the contract (docs/ems-api.md §2, §4.1, §4.2, §4.5, §6) as zod schemas. They are the one
 * source of truth for the sandbox's field lists, for the OpenAPI document and for tests of the
 * generated data.
 *
 * The sandbox's own copy of the contract, on purpose: it does not import lib/ems/contract.ts (the
 * portal's copy). The two sides of the contract must not share a definition, or a mistake in it
 * would pass every test.
 */
export const headerPairSchema = z.object({ key: z.string(), value: z.string() });
/** An extra value of each delivery, e.g. `{ key: "event_id", type: "registrant", value: "event_id" }` (docs/ems-api.md §4.1a). */
export const customFieldSchema = z.object({ key: z.string(), type: z.string(), value: z.string() });

/** What a webhook can fire on (docs/ems-api.md §4.1a). */
export const TRIGGER_OBJECTS = ["event", "contact", "registrant", "speaker", "sponsor", "session", "session_attendance", "registrant_line_item"] as const;
export const CONTENT_TYPES = ["json", "post"] as const;

const timestampString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .meta({ description: "UTC, YYYY-MM-DD HH:MM:SS" });

/** The production webhook (docs/ems-api.md §4.1a), fields in the API's order. */
export const webhookSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  url: z.string(),
  group_id: z.number().int().positive().nullable().meta({ description: "null: the webhook is in no group (docs/ems-api.md §8.1)" }),
  trigger_object: z.enum(TRIGGER_OBJECTS),
  trigger_on_insert: z.boolean(),
  trigger_on_update: z.boolean(),
  trigger_on_delete: z.boolean(),
  public_user: z.boolean().meta({ description: "Fires on changes a registrant makes on a public page" }),
  admin_user: z.boolean().meta({ description: "Fires on changes a staff user makes in the web app" }),
  api_call: z.boolean().meta({ description: "Fires on changes made through the API" }),
  any_event: z.boolean().meta({ description: "Fires for every event of the account" }),
  event_ids: z.array(z.number().int().positive()).meta({ description: "The events it fires for when any_event is false" }),
  enabled: z.boolean(),
  content_type: z.enum(CONTENT_TYPES).meta({ description: "json, or post (form-encoded)" }),
  all_fields: z.boolean(),
  use_default_fields: z.boolean(),
  post_field_data: z.array(z.string()).meta({ description: "The fields a delivery carries when neither all_fields nor use_default_fields" }),
  fields: z.array(z.string()).meta({ description: "The object's fields whose change fires the webhook (empty: any change)" }),
  custom_fields: z.array(customFieldSchema).meta({ description: "Extra values added to each delivery" }),
  headers: z.array(headerPairSchema),
  notes: z.string().nullable(),
  created_at: timestampString,
  created_by: z.string().nullable(),
  updated_at: timestampString,
  updated_by: z.string().nullable(),
});

export const webhookItemSchema = webhookSchema.partial().meta({ description: "A webhook limited to the requested fields" });

/** Standard fields only; `webhooks` is an extra field added by `expand`. */
export const webhookGroupSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().meta({ description: "Any Unicode text" }),
  headers: z.array(headerPairSchema),
  notification_emails: z.array(z.string()),
  updated_at: timestampString.meta({ description: "The last change; a group never changed carries its creation time" }),
  updated_by: z.string().nullable().meta({ description: "Who made the last change; null for a group never changed" }),
});

export const webhookGroupExtraFields = {
  webhooks: z.array(webhookSchema).meta({ description: "Only with expand=webhooks" }),
};

export const webhookGroupItemSchema = webhookGroupSchema
  .partial()
  .extend({ webhooks: webhookGroupExtraFields.webhooks.optional() })
  .meta({ description: "A webhook group limited to the requested fields and expansions" });

const dateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const timeString = z.string().regex(/^\d{2}:\d{2}:\d{2}$/);
export const EVENT_STATUSES = ["live", "draft", "closed", "cancelled"] as const;

export const eventSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  status: z.enum(EVENT_STATUSES),
  type_id: z.number().int().nullable(),
  folder_id: z.number().int().nullable(),
  start_date: dateString,
  end_date: dateString,
  start_time: timeString,
  end_time: timeString,
  timezone: z.string().meta({ description: "IANA time zone name" }),
  capacity: z.number().int().nullable(),
  free_event: z.union([z.literal(0), z.literal(1)]),
  url: z.string().meta({ description: "slug" }),
  created_at: timestampString,
  updated_at: timestampString,
  // Known to the production service (docs/ems-api.md §4.2); a client treats them as optional.
  close_date: dateString.nullable().meta({ description: "Registration closes (YYYY-MM-DD)" }),
  close_time: timeString.nullable(),
  description: z.string().nullable(),
  domain: z.string().nullable().meta({ description: "Custom domain of the event's site" }),
  hashtag: z.string().nullable(),
  organizer_id: z.number().int().nullable(),
  target_attendance: z.number().int().nullable(),
  webinar_url: z.string().nullable(),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
});

export const eventItemSchema = eventSchema.partial().meta({ description: "An event limited to the requested fields (id and name without `fields`)" });

export type Webhook = z.infer<typeof webhookSchema>;
export type CustomField = z.infer<typeof customFieldSchema>;
export type WebhookGroup = z.infer<typeof webhookGroupSchema>;
export type EmsEvent = z.infer<typeof eventSchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  type: z.literal("bearer"),
  expires_at: timestampString,
});

export const tokenRequestBodySchema = z.object({ grant_type: z.literal("client_credentials") }).meta({ description: "Exactly one field" });

export const errorBodySchema = z.object({ name: z.string(), message: z.string(), code: z.number().int(), status: z.number().int() });

export const validationErrorsSchema = z.array(z.object({ field: z.string(), message: z.string() })).meta({ description: "Body of a 422 answer" });

const linkSchema = z.object({ href: z.string() });
export const linksSchema = z.object({
  self: linkSchema,
  first: linkSchema,
  last: linkSchema,
  next: linkSchema.optional(),
  prev: linkSchema.optional(),
});

export const metaSchema = z.object({
  totalCount: z.number().int().min(0),
  pageCount: z.number().int().min(0),
  currentPage: z.number().int().min(1),
  perPage: z.number().int().min(1).max(200),
});

export function envelopeSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), _links: linksSchema, _meta: metaSchema });
}

export const webhookGroupPageSchema = envelopeSchema(webhookGroupItemSchema);
export const eventPageSchema = envelopeSchema(eventItemSchema);
export const webhookPageSchema = envelopeSchema(webhookItemSchema);
