import "server-only";
import { z } from "zod";
import { visibleText, visibleTextIn } from "@/lib/text/invisible-characters";

/**
 * Response shapes, parsed tolerantly where the production service is lax (docs/ems-api.md §4):
 * fields the query did not ask for may be missing, unknown fields are ignored, `webhooks` comes
 * as an array or as an object keyed by id, integers may arrive as numeric strings, and
 * `headers` as `[{key, value}]` or as a `{name: value}` object. An item without an `id` is not a
 * record: that answer is rejected as a whole.
 *
 * Every string of a parsed record comes out without invisible characters (bidi overrides,
 * zero-width characters: lib/text/invisible-characters.ts): `updated_by: "\u202Eevil"` would show
 * as "live". Cleaned here, once, every page, export, health check, history record and alert gets
 * the same visible text.
 */

const intLike = z.preprocess((value) => (typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value), z.number().int());

const nullableInt = z.preprocess((value) => (value === "" ? null : value), intLike.nullable());

const textLike = z.preprocess((value) => (typeof value === "number" || typeof value === "boolean" ? String(value) : value), z.string());

const nullableText = z.preprocess((value) => (typeof value === "number" ? String(value) : value), z.string().nullable());

const booleanLike = z.preprocess((value) => {
  if (value === 1 || value === "1" || value === "true") return true;
  if (value === 0 || value === "0" || value === "false") return false;
  return value;
}, z.boolean());

export type EmsHeader = { key: string; value: string };

const headerEntrySchema = z.object({ key: textLike, value: z.preprocess((v) => v ?? "", textLike) });

const headersSchema = z.preprocess((value): unknown => {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).map(([key, entry]) =>
      entry !== null && typeof entry === "object" && "key" in (entry as object) ? entry : { key, value: entry },
    );
  }
  return value;
}, z.array(headerEntrySchema));

const emailsSchema = z.preprocess((value): unknown => {
  if (value === null || value === undefined) return [];
  if (typeof value === "string") return value.split(/[,;\s]+/).filter(Boolean);
  if (typeof value === "object" && !Array.isArray(value)) return Object.values(value as Record<string, unknown>);
  return value;
}, z.array(textLike));

/** `event_ids` / `fields` as an array, or a comma-separated string (`"12,15"`), or an object of values. */
function listOf<T extends z.ZodType>(item: T) {
  return z.preprocess((value): unknown => {
    if (value === null || value === undefined || value === "") return [];
    if (typeof value === "string")
      return value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean);
    if (typeof value === "object" && !Array.isArray(value)) return Object.values(value as Record<string, unknown>);
    return value;
  }, z.array(item));
}

export type EmsCustomField = { key: string; type: string; value: string };

/** `custom_fields` (§4.1a): `[{key, type, value}]`; a missing part is empty text. */
const customFieldsSchema = z.preprocess(
  (value): unknown => (value === null || value === undefined || value === "" ? [] : typeof value === "object" && !Array.isArray(value) ? Object.values(value) : value),
  z.array(z.object({ key: z.preprocess((v) => v ?? "", textLike), type: z.preprocess((v) => v ?? "", textLike), value: z.preprocess((v) => v ?? "", textLike) })),
);

/**
 * A webhook (docs/ems-api.md §4.1a). Every field but `id` may be missing: missing means unknown,
 * never false or empty. Values outside the documented ones (a new `trigger_object`, a
 * `content_type` of `form`) are kept as they come.
 */
export const webhookSchema = z.object({
  id: intLike,
  name: textLike.optional(),
  url: textLike.optional(),
  group_id: nullableInt.optional(),
  trigger_object: textLike.optional(),
  trigger_on_insert: booleanLike.optional(),
  trigger_on_update: booleanLike.optional(),
  trigger_on_delete: booleanLike.optional(),
  public_user: booleanLike.optional(),
  admin_user: booleanLike.optional(),
  api_call: booleanLike.optional(),
  any_event: booleanLike.optional(),
  event_ids: listOf(intLike).optional(),
  enabled: booleanLike.optional(),
  content_type: textLike.optional(),
  all_fields: booleanLike.optional(),
  use_default_fields: booleanLike.optional(),
  post_field_data: listOf(textLike).optional(),
  fields: listOf(textLike).optional(),
  custom_fields: customFieldsSchema.optional(),
  headers: headersSchema.optional(),
  notes: nullableText.optional(),
  created_at: nullableText.optional(),
  created_by: nullableText.optional(),
  updated_at: nullableText.optional(),
  updated_by: nullableText.optional(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** `webhooks` as an array, or as an object keyed by id (the seed types it "object"): always a list. */
const webhooksSchema = z.preprocess((value): unknown => {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).map(([id, entry]) =>
      entry !== null && typeof entry === "object" && !("id" in (entry as object)) ? { id, ...(entry as object) } : entry,
    );
  }
  return value;
}, z.array(webhookSchema));

export const webhookGroupSchema = z.object({
  id: intLike,
  name: textLike.optional(),
  headers: headersSchema.optional(),
  notification_emails: emailsSchema.optional(),
  webhooks: webhooksSchema.optional(),
  /** The last change (§4.1, §8.2); optional: not every EMS sends them. */
  updated_at: nullableText.optional(),
  updated_by: nullableText.optional(),
});
export type WebhookGroup = z.infer<typeof webhookGroupSchema>;

export const emsEventSchema = z.object({
  id: intLike,
  name: textLike.optional(),
  status: textLike.optional(),
  type_id: nullableInt.optional(),
  folder_id: nullableInt.optional(),
  start_date: nullableText.optional(),
  end_date: nullableText.optional(),
  start_time: nullableText.optional(),
  end_time: nullableText.optional(),
  timezone: nullableText.optional(),
  capacity: nullableInt.optional(),
  free_event: z.preprocess((value) => (value === true ? 1 : value === false ? 0 : value), intLike).optional(),
  url: nullableText.optional(),
  created_at: nullableText.optional(),
  updated_at: nullableText.optional(),
});
export type EmsEvent = z.infer<typeof emsEventSchema>;

/*
 * The canonical shapes, checked first: the common, well-formed answer passes these plain schemas
 * several times faster than the tolerant ones above, which only run when an item needs mending.
 */
const strictHeaders = z.array(z.object({ key: z.string(), value: z.string() }));
const strictWebhook = z.object({
  id: z.number().int(),
  name: z.string().optional(),
  url: z.string().optional(),
  group_id: z.number().int().nullable().optional(),
  trigger_object: z.string().optional(),
  trigger_on_insert: z.boolean().optional(),
  trigger_on_update: z.boolean().optional(),
  trigger_on_delete: z.boolean().optional(),
  public_user: z.boolean().optional(),
  admin_user: z.boolean().optional(),
  api_call: z.boolean().optional(),
  any_event: z.boolean().optional(),
  event_ids: z.array(z.number().int()).optional(),
  enabled: z.boolean().optional(),
  content_type: z.string().optional(),
  all_fields: z.boolean().optional(),
  use_default_fields: z.boolean().optional(),
  post_field_data: z.array(z.string()).optional(),
  fields: z.array(z.string()).optional(),
  custom_fields: z.array(z.object({ key: z.string(), type: z.string(), value: z.string() })).optional(),
  headers: strictHeaders.optional(),
  notes: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
  created_by: z.string().nullable().optional(),
  updated_at: z.string().nullable().optional(),
  updated_by: z.string().nullable().optional(),
});
const strictWebhookGroup = z.object({
  id: z.number().int(),
  name: z.string().optional(),
  headers: strictHeaders.optional(),
  notification_emails: z.array(z.string()).optional(),
  webhooks: z.array(strictWebhook).optional(),
  updated_at: z.string().nullable().optional(),
  updated_by: z.string().nullable().optional(),
});
const strictEvent = z.object({
  id: z.number().int(),
  name: z.string().optional(),
  status: z.string().optional(),
  type_id: z.number().int().nullable().optional(),
  folder_id: z.number().int().nullable().optional(),
  start_date: z.string().nullable().optional(),
  end_date: z.string().nullable().optional(),
  start_time: z.string().nullable().optional(),
  end_time: z.string().nullable().optional(),
  timezone: z.string().nullable().optional(),
  capacity: z.number().int().nullable().optional(),
  free_event: z.number().int().optional(),
  url: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
  updated_at: z.string().nullable().optional(),
});
const STRICT_SCHEMAS = new Map<z.ZodType, z.ZodType>([
  [webhookGroupSchema, strictWebhookGroup],
  [emsEventSchema, strictEvent],
  [webhookSchema, strictWebhook],
]);

const metaSchema = z.object({
  totalCount: intLike,
  pageCount: intLike,
  currentPage: intLike,
  perPage: intLike,
});
export type ListMeta = z.infer<typeof metaSchema>;

/** The canonical envelope of each resource, checked in one pass before anything else. */
const STRICT_ENVELOPES = new Map<z.ZodType, z.ZodType<{ items: unknown[]; _meta: ListMeta }>>(
  [...STRICT_SCHEMAS].map(([tolerant, strict]) => [
    tolerant,
    z.object({
      items: z.array(strict),
      _meta: z.object({ totalCount: z.number().int(), pageCount: z.number().int(), currentPage: z.number().int(), perPage: z.number().int() }),
    }),
  ]),
);

/** The framework's envelope `{items, _links, _meta}`; a bare array is accepted as `items`. */
const envelopeSchema = z.preprocess(
  (value) => (Array.isArray(value) ? { items: value } : value),
  z.object({ items: z.array(z.unknown()), _meta: z.unknown().optional() }),
);

export interface ParsedList<T> {
  items: T[];
  meta: ListMeta;
}

export class ResponseShapeError extends Error {}

/**
 * Parses a listing answer. `_meta` wins; without it the `X-Pagination-*` headers; without those,
 * one page holding what came back.
 */
export function parseListBody<T>(body: unknown, itemSchema: z.ZodType<T>, headers: Headers, requested: { page?: number; perPage?: number }): ParsedList<T> {
  const canonical = STRICT_ENVELOPES.get(itemSchema)?.safeParse(body);
  if (canonical?.success) return { items: visibleTextIn(canonical.data.items as T[]), meta: canonical.data._meta };
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) throw new ResponseShapeError("the answer has no items list");
  const items: T[] = [];
  const strict = STRICT_SCHEMAS.get(itemSchema);
  for (const [index, raw] of envelope.data.items.entries()) {
    const canonical = strict?.safeParse(raw);
    if (canonical?.success) {
      items.push(canonical.data as T);
      continue;
    }
    const item = itemSchema.safeParse(raw);
    if (!item.success) {
      const issue = item.error.issues[0];
      throw new ResponseShapeError(`item ${index} is unreadable at "${issue?.path.join(".") ?? ""}": ${issue?.message ?? "invalid"}`);
    }
    items.push(item.data);
  }
  visibleTextIn(items);
  const meta = metaSchema.safeParse(envelope.data._meta);
  if (meta.success) return { items, meta: meta.data };
  const fromHeaders = metaSchema.safeParse({
    totalCount: headers.get("x-pagination-total-count"),
    pageCount: headers.get("x-pagination-page-count"),
    currentPage: headers.get("x-pagination-current-page"),
    perPage: headers.get("x-pagination-per-page"),
  });
  if (fromHeaders.success) return { items, meta: fromHeaders.data };
  const perPage = requested.perPage ?? 20;
  return {
    items,
    meta: { totalCount: items.length, pageCount: 1, currentPage: requested.page ?? 1, perPage },
  };
}

/** Parses a single-record answer (docs/ems-api.md §4.6): the record itself, no envelope. */
export function parseRecordBody<T>(body: unknown, itemSchema: z.ZodType<T>): T {
  const strict = STRICT_SCHEMAS.get(itemSchema)?.safeParse(body);
  if (strict?.success) return visibleTextIn(strict.data as T);
  const parsed = itemSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ResponseShapeError(`the record is unreadable at "${issue?.path.join(".") ?? ""}": ${issue?.message ?? "invalid"}`);
  }
  return visibleTextIn(parsed.data);
}

/** The most of an API's error message a person is shown. */
export const MAX_API_MESSAGE_LENGTH = 200;

/**
 * The `message` of an error body in the contract's shapes (docs/ems-api.md §6: `{name, message,
 * code, status}`, or a 422's `[{field, message}]`), cleaned for showing (`cleanApiMessage`), or null.
 * The only upstream text that may reach a page: never a raw body.
 */
export function apiErrorMessage(bodyText: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return null;
  }
  if (Array.isArray(body)) {
    const messages = body
      .map((entry) => {
        if (!entry || typeof entry !== "object") return null;
        const { field, message } = entry as { field?: unknown; message?: unknown };
        if (typeof message !== "string") return null;
        return typeof field === "string" && field ? `${field}: ${message}` : message;
      })
      .filter((message): message is string => message !== null);
    return cleanApiMessage(messages.join("; "));
  }
  if (body && typeof body === "object" && typeof (body as { message?: unknown }).message === "string") {
    return cleanApiMessage((body as { message: string }).message);
  }
  return null;
}

/**
 * Upstream text made fit to show on one line: line breaks and other control characters made spaces,
 * invisible characters (bidi overrides, zero-width characters) removed (`visibleText`), white space
 * collapsed, at most MAX_API_MESSAGE_LENGTH characters (cut with "…"); null when nothing is left.
 */
export function cleanApiMessage(text: string): string | null {
  const cleaned = visibleText(text.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " "))
    .replace(/\s+/g, " ")
    .trim();
  if (!cleaned) return null;
  const characters = [...cleaned];
  return characters.length <= MAX_API_MESSAGE_LENGTH
    ? cleaned
    : `${characters
        .slice(0, MAX_API_MESSAGE_LENGTH - 1)
        .join("")
        .trimEnd()}…`;
}
