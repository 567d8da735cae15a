/**
 * The EMS API contract (docs/ems-api.md) as data and rules, in one place: the fields of each
 * listing, what may be searched and sorted, the search operators, the limits, the rule for a search
 * value and the form of a base URL. The EMS client (lib/ems/query.ts, lib/ems/credentials.ts), the
 * listing pages and the export (lib/listing) and the settings form all decide with these.
 *
 * Not `server-only`: the filter builder (a client component) checks values with the same rule the
 * client enforces, and it holds no secret.
 *
 * lib/sandbox keeps its own copy of the contract on purpose (lib/sandbox/api/descriptors.ts and
 * search.ts): the two sides of the contract must not share a definition, or a mistake in it would
 * pass every test.
 */

/** The resources the portal's listing pages show: webhook groups, events and webhooks on their own (§4.1a). */
export type EmsResource = "webhook-groups" | "events" | "webhooks";
/** Every resource the client reads (the listing pages' ones). */
export type EmsApiResource = EmsResource;
/** `boolean` fields are searched with `0`/`1` and equality only (§4.1a, ours). */
export type FieldType = "number" | "text" | "date" | "boolean";

/** A webhook group's standard fields (§4.1), in the API's order. */
export const WEBHOOK_GROUP_FIELDS = ["id", "name", "headers", "notification_emails"] as const;
/** What `expand` accepts for webhook groups (§4.1, §4.3); events expand nothing. */
export const WEBHOOK_GROUP_EXPAND = ["webhooks"] as const;
/** An event's standard fields (§4.2), in the API's order. */
export const EVENT_FIELDS = [
  "id",
  "name",
  "status",
  "type_id",
  "folder_id",
  "start_date",
  "end_date",
  "start_time",
  "end_time",
  "timezone",
  "capacity",
  "free_event",
  "url",
  "created_at",
  "updated_at",
] as const;

/** The statuses an event may have (§4.2). Production may add one: a listing shows any value it gets. */
export const EVENT_STATUSES = ["live", "draft", "closed", "cancelled"] as const;

/** A webhook's fields (§4.1a), in the API's order. */
export const WEBHOOK_FIELDS = [
  "id",
  "name",
  "url",
  "group_id",
  "trigger_object",
  "trigger_on_insert",
  "trigger_on_update",
  "trigger_on_delete",
  "public_user",
  "admin_user",
  "api_call",
  "any_event",
  "event_ids",
  "enabled",
  "content_type",
  "all_fields",
  "use_default_fields",
  "post_field_data",
  "fields",
  "custom_fields",
  "headers",
  "notes",
  "created_at",
  "created_by",
  "updated_at",
  "updated_by",
] as const;

/**
 * Lists that are sets by what they mean (§4.1, §4.1a): a webhook fires for each event of
 * `event_ids` and on a change of each of `fields`, a group's failures go to each of
 * `notification_emails`. Where an entry stands, or that it is there twice, changes nothing: change
 * history keeps them sorted, and a plan compares them as sets (an edit that only tidies one is none).
 */
export const SET_LIST_FIELDS: readonly string[] = ["event_ids", "fields", "notification_emails"];

/** What a webhook fires on (§4.1a). A client keeps values it does not know: production may add some. */
/** A webhook's `content_type` values (§4.1a). */
export const WEBHOOK_CONTENT_TYPES = ["json", "post"] as const;
export const TRIGGER_OBJECTS = ["event", "contact", "registrant", "speaker", "sponsor", "session", "session_attendance", "registrant_line_item"] as const;

export type WebhookGroupField = (typeof WEBHOOK_GROUP_FIELDS)[number];
export type EventField = (typeof EVENT_FIELDS)[number];
export type WebhookField = (typeof WEBHOOK_FIELDS)[number];

/** A lookup table without a prototype: `table[name]` is undefined for `__proto__`, `constructor`, `toString`… */
function ownKeysOnly<T extends object>(table: T): Readonly<T> {
  return Object.freeze(Object.assign(Object.create(null) as T, table));
}

/**
 * Fields a `search` condition may name, with the type that decides its operators (§4.4, ours).
 * Looked up by names from URLs: prototype-less, so an inherited name is not a field.
 */
export const SEARCHABLE_FIELDS = {
  "webhook-groups": ownKeysOnly({ id: "number", name: "text" } as const),
  events: ownKeysOnly({
    id: "number",
    name: "text",
    status: "text",
    start_date: "date",
    end_date: "date",
    created_at: "date",
    updated_at: "date",
  } as const),
  webhooks: ownKeysOnly({
    id: "number",
    group_id: "number",
    name: "text",
    url: "text",
    trigger_object: "text",
    content_type: "text",
    enabled: "boolean",
    any_event: "boolean",
    updated_at: "date",
  } as const),
} as const satisfies Record<EmsApiResource, Record<string, FieldType>>;

/** Fields a `sort` may name: the scalar standard fields (arrays such as `headers` have no order). */
export const SORTABLE_FIELDS = {
  "webhook-groups": ["id", "name"],
  events: EVENT_FIELDS,
  webhooks: WEBHOOK_FIELDS.filter((field) => !["event_ids", "fields", "post_field_data", "custom_fields", "headers"].includes(field)),
} as const satisfies Record<EmsApiResource, readonly string[]>;

/** Date fields holding `YYYY-MM-DD HH:MM:SS` timestamps (§4.2); the other date fields hold `YYYY-MM-DD`. */
export const TIMESTAMP_FIELDS: readonly string[] = ["created_at", "updated_at"];

/** The search operators (§4.4). */
export const COMPARISON_OPERATORS = ["=", "!=", ">=", "<=", ">", "<"] as const;
export const TEXT_OPERATORS = ["=*contains*", "=*beginswith*", "=*endswith*", "!=*contains*", "!=*beginswith*", "!=*endswith*"] as const;
/** `=*in*` takes `|`-separated values (`status=*in*live|draft`); `!=*in*` is its negation (§4.4). */
export const SET_OPERATORS = ["=*in*", "!=*in*"] as const;
export const SET_SEPARATOR = "|";
export const OPERATORS = [...COMPARISON_OPERATORS, ...TEXT_OPERATORS, ...SET_OPERATORS] as const;
export type SearchOperator = (typeof OPERATORS)[number];

export function isSetOperator(operator: string): boolean {
  return operator === "=*in*" || operator === "!=*in*";
}

/**
 * Which operators fit which field type: numbers compare; text also matches; dates compare as text
 * in their stated formats, so they take the text operators too (`created_at=*beginswith*2026-11`);
 * every type takes the set operators; booleans only equality.
 */
export const OPERATORS_BY_TYPE: Readonly<Record<FieldType, readonly SearchOperator[]>> = ownKeysOnly({
  number: [...COMPARISON_OPERATORS, ...SET_OPERATORS],
  date: OPERATORS,
  text: OPERATORS,
  boolean: ["=", "!=", ...SET_OPERATORS],
});

/** §4.3: `per-page` is 1 to 200, default 20; at most 100 `ids`. */
export const MAX_PER_PAGE = 200;
export const DEFAULT_PER_PAGE = 20;
export const MAX_IDS = 100;
/** Not a contract limit: keeps a query string far below any URL length limit. */
export const MAX_SEARCH_CONDITIONS = 20;
export const MAX_SEARCH_VALUE_LENGTH = 200;

export type SearchCondition = { field: string; operator: SearchOperator; value: string };
export type SortDirection = "asc" | "desc";
/** One level of a sort: the client's query, the listing's URL state and saved views all use it. */
export type SortKey<F extends string = string> = { field: F; direction: SortDirection };

/** `name=*contains*summit`: a condition as the API writes it (§4.4), before URL encoding. */
export function formatCondition(condition: { field: string; operator: string; value: string }): string {
  return `${condition.field}${condition.operator}${condition.value}`;
}

/** `-id`: one sort level as the API writes it (§4.3). */
export function formatSortKey(key: SortKey): string {
  return key.direction === "desc" ? `-${key.field}` : key.field;
}

/** What can be wrong with a search value; each side words it for its own reader. */
export type SearchValueProblem =
  | { kind: "empty" }
  | { kind: "ampersand" }
  | { kind: "too-long" }
  | { kind: "control-character" }
  /** `=`/`!=` with a value starting with `*` would read as a text operator (`=*within*x`, §4.4). */
  | { kind: "looks-like-operator"; prefix: string }
  | { kind: "not-a-number" }
  | { kind: "not-a-boolean" }
  /** `=*in*` with an empty entry (`live||draft`, `a|`) (§4.4). */
  | { kind: "empty-list-entry" }
  /** A date compared with `=`, `<`, ... must be written in the field's format (§4.4: dates compare as text). */
  | { kind: "not-a-date"; timestamp: boolean };

const WHOLE_NUMBER = /^-?\d{1,15}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_OR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/;

/**
 * Every problem with the value of one search condition, by the contract's rules (§4.4), empty when
 * the API will take it. The one rule for the EMS client's query check and the listing's filters.
 */
export function searchValueProblems(field: string, type: FieldType, operator: string, value: string): SearchValueProblem[] {
  const problems: SearchValueProblem[] = [];
  if (value.trim() === "") problems.push({ kind: "empty" });
  if (value.includes("&")) problems.push({ kind: "ampersand" });
  if (value.length > MAX_SEARCH_VALUE_LENGTH) problems.push({ kind: "too-long" });
  if (/[\u0000-\u001f\u007f]/.test(value)) problems.push({ kind: "control-character" });
  if ((operator === "=" || operator === "!=") && value.startsWith("*")) {
    const closing = value.indexOf("*", 1);
    problems.push({ kind: "looks-like-operator", prefix: closing > 0 ? value.slice(0, closing + 1) : "*" });
  }
  // The set operators check each of their values; an empty list is "empty" above.
  const set = isSetOperator(operator);
  const values = set ? value.split(SET_SEPARATOR) : [value];
  if (set && values.length > 1 && values.some((entry) => entry === "")) problems.push({ kind: "empty-list-entry" });
  const entries = set ? values.filter((entry) => entry !== "") : values;
  if (type === "number" && !entries.every((entry) => WHOLE_NUMBER.test(entry))) problems.push({ kind: "not-a-number" });
  if (type === "boolean" && !entries.every((entry) => entry === "0" || entry === "1")) problems.push({ kind: "not-a-boolean" });
  if (type === "date" && !operator.includes("*")) {
    const timestamp = TIMESTAMP_FIELDS.includes(field);
    if (!(timestamp ? DATE_OR_TIMESTAMP : DATE).test(value)) problems.push({ kind: "not-a-date", timestamp });
  }
  return problems;
}

/** How a date field's comparison values are written, for messages. */
export function dateFormatOf(problem: { timestamp: boolean }): string {
  return problem.timestamp ? "YYYY-MM-DD or YYYY-MM-DD HH:MM:SS" : "YYYY-MM-DD";
}

/** Every path of the API starts here (§1); a base URL is the part before it. */
export const API_PATH_PREFIX = "/api/v1";

export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; message: string };

/**
 * The form of a base URL (§1): an http(s) scheme and host with an optional path prefix, no
 * credentials, query or fragment, and without `/api/v1` (every path adds it). Returns the canonical
 * form (`scheme://host[:port][/prefix]`, no trailing slash) or what to fix.
 *
 * Only the form: which hosts the portal may reach, and that it must be over HTTPS, is the
 * destination policy's to decide (lib/ems/destination.ts `checkEmsBaseUrl`, which calls this first).
 */
export function checkBaseUrl(input: string): BaseUrlCheck {
  const value = input.trim();
  if (!value) return { ok: false, message: "Enter the base URL of your EMS API, e.g. https://api.example.com." };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, message: "That is not a URL. It should look like https://api.example.com." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, message: "The base URL must start with https://." };
  }
  if (url.username || url.password) {
    return { ok: false, message: "Leave the user name and password out of the URL; enter the key and secret below." };
  }
  if (url.search || url.hash) {
    return { ok: false, message: "The base URL cannot have a query (?…) or fragment (#…)." };
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (path.endsWith(API_PATH_PREFIX)) {
    return { ok: false, message: `Leave out ${API_PATH_PREFIX}: enter only the part before it, e.g. https://api.example.com.` };
  }
  return { ok: true, baseUrl: `${url.protocol}//${url.host}${path}` };
}
