import { describe, expect, it } from "vitest";
import { parseRateLimit, retryAfterSeconds } from "@/lib/ems/rate-limit";
import {
  apiErrorMessage,
  cleanApiMessage,
  emsEventSchema,
  parseListBody,
  parseRecordBody,
  ResponseShapeError,
  webhookGroupSchema,
  webhookSchema,
} from "@/lib/ems/responses";

const noHeaders = new Headers();

describe("parseListBody", () => {
  it("reads the standard envelope and ignores unknown fields", () => {
    const body = {
      items: [{ id: 7, name: "CRM sync", headers: [{ key: "X-Api-Key", value: "k-123" }], notification_emails: ["ops@example.com"], colour: "red" }],
      _links: { self: { href: "x" } },
      _meta: { totalCount: 137, pageCount: 7, currentPage: 1, perPage: 20 },
    };
    const parsed = parseListBody(body, webhookGroupSchema, noHeaders, {});
    expect(parsed.meta).toEqual({ totalCount: 137, pageCount: 7, currentPage: 1, perPage: 20 });
    expect(parsed.items).toEqual([{ id: 7, name: "CRM sync", headers: [{ key: "X-Api-Key", value: "k-123" }], notification_emails: ["ops@example.com"] }]);
  });

  it("turns webhooks keyed by id into a list, and accepts an array as it is", () => {
    const webhook = {
      name: "w",
      url: "https://x",
      group_id: 7,
      trigger_object: "event",
      trigger_on_insert: 1,
      trigger_on_update: "0",
      trigger_on_delete: false,
      enabled: true,
      content_type: "json",
      headers: [],
    };
    const asObject = parseListBody({ items: [{ id: 7, webhooks: { "11": webhook, "12": { ...webhook, id: 12 } } }] }, webhookGroupSchema, noHeaders, {});
    expect(asObject.items[0].webhooks?.map((w) => w.id)).toEqual([11, 12]);
    expect(asObject.items[0].webhooks?.[0]).toMatchObject({ trigger_on_insert: true, trigger_on_update: false });
    const asArray = parseListBody({ items: [{ id: 7, webhooks: [{ id: 11, ...webhook }] }] }, webhookGroupSchema, noHeaders, {});
    expect(asArray.items[0].webhooks?.[0].id).toBe(11);
  });

  it("tolerates missing optional fields, numeric strings and headers as an object", () => {
    const parsed = parseListBody({ items: [{ id: "9", headers: { "X-A": "1" }, notification_emails: null }] }, webhookGroupSchema, noHeaders, {});
    expect(parsed.items[0]).toEqual({ id: 9, headers: [{ key: "X-A", value: "1" }], notification_emails: [] });
    const event = parseListBody({ items: [{ id: 1, name: "E", capacity: null, free_event: true, type_id: "3" }] }, emsEventSchema, noHeaders, {});
    expect(event.items[0]).toEqual({ id: 1, name: "E", capacity: null, free_event: 1, type_id: 3 });
  });

  it("falls back to the X-Pagination headers, then to one page", () => {
    const headers = new Headers({ "x-pagination-total-count": "41", "x-pagination-page-count": "3", "x-pagination-current-page": "2", "x-pagination-per-page": "20" });
    expect(parseListBody({ items: [] }, webhookGroupSchema, headers, {}).meta).toEqual({ totalCount: 41, pageCount: 3, currentPage: 2, perPage: 20 });
    expect(parseListBody([{ id: 1 }], webhookGroupSchema, noHeaders, { page: 4, perPage: 5 }).meta).toEqual({ totalCount: 1, pageCount: 1, currentPage: 4, perPage: 5 });
  });

  it("rejects an answer without items, or an item without an id", () => {
    expect(() => parseListBody({ data: [] }, webhookGroupSchema, noHeaders, {})).toThrow(ResponseShapeError);
    expect(() => parseListBody({ items: [{ name: "no id" }] }, webhookGroupSchema, noHeaders, {})).toThrow(/item 0 is unreadable at "id"/);
    expect(() => parseListBody("<html>", webhookGroupSchema, noHeaders, {})).toThrow(ResponseShapeError);
  });
});

// Issue 24, finding 8: EMS text with a bidi override reached pages as sent (`updated_by` on the
// changes feed and a group's page), so who made a change could be spoofed on screen.
describe("EMS text arrives without bidi controls or invisible characters", () => {
  const webhook = {
    id: 11,
    name: "Hook\u200B",
    url: "https://x.example/h",
    updated_by: "\u202Eevil",
    updated_at: "2026-01-01 10:00:00",
    headers: [{ key: "X-\u2066Key", value: "v" }],
  };

  it("in a listing answer, canonical or mended, and in a single record", () => {
    const canonical = parseListBody(
      { items: [{ id: 7, name: "\u202Emoc.elgoog", webhooks: [webhook] }], _meta: { totalCount: 1, pageCount: 1, currentPage: 1, perPage: 20 } },
      webhookGroupSchema,
      noHeaders,
      {},
    );
    expect(canonical.items[0].name).toBe("moc.elgoog");
    expect(canonical.items[0].webhooks?.[0]).toMatchObject({ name: "Hook", updated_by: "evil", headers: [{ key: "X-Key", value: "v" }] });
    const { id: _id, ...keyedById } = webhook;
    void _id;
    const mended = parseListBody({ items: [{ id: "7", name: "a\u2067b", webhooks: { "11": { ...keyedById, enabled: "1" } } }] }, webhookGroupSchema, noHeaders, {});
    expect(mended.items[0].name).toBe("ab");
    expect(mended.items[0].webhooks?.[0].updated_by).toBe("evil");
    expect(parseRecordBody(webhook, webhookSchema).updated_by).toBe("evil");
    expect(parseRecordBody({ ...webhook, enabled: "1" }, webhookSchema).updated_by).toBe("evil");
    expect(parseRecordBody({ id: 3, name: "Gala\u202E", status: "live" }, emsEventSchema).name).toBe("Gala");
  });
});

describe("apiErrorMessage", () => {
  it("reads the framework's error body and a 422 list", () => {
    expect(apiErrorMessage(JSON.stringify({ name: "Bad Request", message: "Unknown field", code: 0, status: 400 }))).toBe("Unknown field");
    expect(apiErrorMessage(JSON.stringify([{ field: "per-page", message: "too big" }, { message: "other" }]))).toBe("per-page: too big; other");
    expect(apiErrorMessage("<html>502</html>")).toBeNull();
    expect(apiErrorMessage(JSON.stringify({ status: 500 }))).toBeNull();
  });

  it("cleans what it returns: no control or invisible characters, white space collapsed, at most 200 characters", () => {
    expect(cleanApiMessage("  Unknown\r\n\tfield\u0000 \u202eevil\u200b ")).toBe("Unknown field evil");
    expect(cleanApiMessage("\u0007\u200f ")).toBeNull();
    const long = cleanApiMessage("é".repeat(500))!;
    expect([...long]).toHaveLength(200);
    expect(long.endsWith("…")).toBe(true);
    expect(apiErrorMessage(JSON.stringify([{ field: "per-page", message: "x".repeat(300) }]))).toHaveLength(200);
    expect(apiErrorMessage(JSON.stringify({ message: "\u0000" }))).toBeNull();
  });
});

describe("rate-limit headers", () => {
  const at = Date.UTC(2026, 10, 21, 16, 0, 0);
  it("reads limit, remaining and reset (seconds from now)", () => {
    const headers = new Headers({ "x-rate-limit-limit": "2000", "x-rate-limit-remaining": "1990", "x-rate-limit-reset": "600" });
    expect(parseRateLimit(headers, at)).toEqual({ limit: 2000, remaining: 1990, resetAt: new Date(at + 600_000) });
    expect(parseRateLimit(new Headers({ "x-rate-limit-limit": "2000" }), at)).toBeNull();
  });

  it("takes the wait from Retry-After (seconds or a date), else from the reset, else 60 s", () => {
    expect(retryAfterSeconds(new Headers({ "retry-after": "17" }), at)).toBe(17);
    expect(retryAfterSeconds(new Headers({ "retry-after": new Date(at + 30_000).toUTCString() }), at)).toBe(30);
    expect(retryAfterSeconds(new Headers({ "x-rate-limit-limit": "1", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "42" }), at)).toBe(42);
    expect(retryAfterSeconds(new Headers(), at)).toBe(60);
  });
});

describe("webhooks with the production fields (docs/ems-api.md §4.1a)", () => {
  const full = {
    id: 11,
    name: "Registrants to CRM",
    url: "https://hooks.example.com/x",
    group_id: 7,
    trigger_object: "registrant",
    trigger_on_insert: true,
    trigger_on_update: true,
    trigger_on_delete: false,
    public_user: true,
    admin_user: false,
    api_call: true,
    any_event: false,
    event_ids: [1190, 1201],
    enabled: true,
    content_type: "post",
    all_fields: false,
    use_default_fields: false,
    fields: ["id", "email"],
    headers: [{ key: "X-Api-Key", value: "k" }],
    notes: null,
    created_at: "2026-01-02 03:04:05",
    created_by: "ops@example.com",
    updated_at: "2026-02-03 04:05:06",
    updated_by: null,
  };

  it("reads every field of the canonical shape as it is", () => {
    const parsed = parseListBody({ items: [full], _meta: { totalCount: 1, pageCount: 1, currentPage: 1, perPage: 20 } }, webhookSchema, noHeaders, {});
    expect(parsed.items[0]).toEqual(full);
  });

  it("a missing field is unknown (absent), never false or empty", () => {
    const parsed = parseListBody({ items: [{ id: 11, url: "https://x" }] }, webhookSchema, noHeaders, {});
    expect(parsed.items[0]).toEqual({ id: 11, url: "https://x" });
    expect(parsed.items[0].enabled).toBeUndefined();
    expect(parsed.items[0].event_ids).toBeUndefined();
  });

  it("mends lax values: 0/1 booleans, numeric strings, a comma-separated event_ids, unknown values kept", () => {
    const lax = { id: "11", any_event: "0", enabled: 1, event_ids: "1190, 1201", group_id: "7", content_type: "form", trigger_object: "order", fields: null, notes: 42 };
    const parsed = parseListBody({ items: [lax] }, webhookSchema, noHeaders, {});
    expect(parsed.items[0]).toEqual({
      id: 11,
      any_event: false,
      enabled: true,
      event_ids: [1190, 1201],
      group_id: 7,
      content_type: "form",
      trigger_object: "order",
      fields: [],
      notes: "42",
    });
  });

  it("single records: the record itself, the same tolerance, a clear error for what is not one", () => {
    expect(parseRecordBody(full, webhookSchema)).toEqual(full);
    expect(parseRecordBody({ id: "5", name: "G", webhooks: { "51": { enabled: "1" } } }, webhookGroupSchema)).toEqual({
      id: 5,
      name: "G",
      webhooks: [{ id: 51, enabled: true }],
    });
    expect(() => parseRecordBody({ name: "no id" }, emsEventSchema)).toThrow(ResponseShapeError);
    expect(() => parseRecordBody([full], webhookSchema)).toThrow(ResponseShapeError);
  });
});
