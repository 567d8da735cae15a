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

export const webhookSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    url: z.string(),
    group_id: z.number().int().positive(),
    trigger_object: z.string().meta({ description: "e.g. registrant, session, event" }),
    trigger_on_insert: z.boolean(),
    trigger_on_update: z.boolean(),
    trigger_on_delete: z.boolean(),
    enabled: z.boolean(),
    content_type: z.enum(["json", "form"]),
    headers: z.array(headerPairSchema),
  });

/** Standard fields only; `webhooks` is an extra field added by `expand`. */
export const webhookGroupSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string().meta({ description: "Any Unicode text" }),
    headers: z.array(headerPairSchema),
    notification_emails: z.array(z.string()),
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
const timestampString = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/).meta({ description: "UTC, YYYY-MM-DD HH:MM:SS" });

export const EVENT_STATUSES = ["live", "draft", "closed", "cancelled"] as const;

export const eventSchema = z
  .object({
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
  });

export const eventItemSchema = eventSchema
  .partial()
  .meta({ description: "An event limited to the requested fields (id and name without `fields`)" });

export type Webhook = z.infer<typeof webhookSchema>;
export type WebhookGroup = z.infer<typeof webhookGroupSchema>;
export type EmsEvent = z.infer<typeof eventSchema>;

export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    type: z.literal("bearer"),
    expires_at: timestampString,
  });

export const tokenRequestBodySchema = z
  .object({ grant_type: z.literal("client_credentials") })
  .meta({ description: "Exactly one field" });

export const errorBodySchema = z
  .object({ name: z.string(), message: z.string(), code: z.number().int(), status: z.number().int() });

export const validationErrorsSchema = z
  .array(z.object({ field: z.string(), message: z.string() }))
  .meta({ description: "Body of a 422 answer" });

const linkSchema = z.object({ href: z.string() });
export const linksSchema = z
  .object({
    self: linkSchema,
    first: linkSchema,
    last: linkSchema,
    next: linkSchema.optional(),
    prev: linkSchema.optional(),
  });

export const metaSchema = z
  .object({
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
