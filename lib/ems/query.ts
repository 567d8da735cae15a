import "server-only";
import { z } from "zod";
import { InvalidQueryError } from "./errors";

/**
 * The listing queries of the EMS API (docs/ems-api.md §4.3, §4.4): what may be asked for, checked
 * with the contract's limits, and the one function that turns a query into the exact query string.
 */

export type EmsResource = "webhook-groups" | "events";
export type FieldType = "number" | "text" | "date";

export const WEBHOOK_GROUP_FIELDS = ["id", "name", "headers", "notification_emails"] as const;
export const WEBHOOK_GROUP_EXPAND = ["webhooks"] as const;
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

export type WebhookGroupField = (typeof WEBHOOK_GROUP_FIELDS)[number];
export type EventField = (typeof EVENT_FIELDS)[number];

/** Fields a `search` condition may name, with the type that decides its operators [contract: ours]. */
export const SEARCHABLE_FIELDS = {
  "webhook-groups": { id: "number", name: "text" },
  events: {
    id: "number",
    name: "text",
    status: "text",
    start_date: "date",
    end_date: "date",
    created_at: "date",
    updated_at: "date",
  },
} as const satisfies Record<EmsResource, Record<string, FieldType>>;

/** Fields a `sort` may name: the scalar standard fields (arrays such as `headers` have no order). */
export const SORTABLE_FIELDS = {
  "webhook-groups": ["id", "name"],
  events: EVENT_FIELDS,
} as const satisfies Record<EmsResource, readonly string[]>;

/** Date fields holding `YYYY-MM-DD HH:MM:SS` timestamps (the other date fields hold `YYYY-MM-DD`). */
export const TIMESTAMP_FIELDS: readonly string[] = ["created_at", "updated_at"];

export const COMPARISON_OPERATORS = ["=", "!=", ">=", "<=", ">", "<"] as const;
export const TEXT_OPERATORS = ["=*contains*", "=*beginswith*", "=*endswith*", "!=*contains*", "!=*beginswith*", "!=*endswith*"] as const;
export const OPERATORS = [...COMPARISON_OPERATORS, ...TEXT_OPERATORS] as const;
export type SearchOperator = (typeof OPERATORS)[number];

/**
 * Which operators fit which field type: numbers compare; text also matches; dates compare as text
 * in their stated formats, so they take the text operators too (`created_at=*beginswith*2026-11`).
 */
export const OPERATORS_BY_TYPE: Record<FieldType, readonly SearchOperator[]> = {
  number: COMPARISON_OPERATORS,
  date: OPERATORS,
  text: OPERATORS,
};

export const MAX_PER_PAGE = 200;
export const DEFAULT_PER_PAGE = 20;
export const MAX_IDS = 100;
/** Not a contract limit: keeps a query string far below any URL length limit. */
export const MAX_SEARCH_CONDITIONS = 20;
export const MAX_SEARCH_VALUE_LENGTH = 200;

export type SearchCondition = { field: string; operator: SearchOperator; value: string };
export type SortKey<F extends string = string> = { field: F; direction: "asc" | "desc" };

function querySchemaFor(resource: EmsResource) {
  const fields = resource === "events" ? EVENT_FIELDS : WEBHOOK_GROUP_FIELDS;
  const searchable: Record<string, FieldType> = SEARCHABLE_FIELDS[resource];
  const sortable = SORTABLE_FIELDS[resource] as readonly string[];
  const searchableNames = Object.keys(searchable);

  const condition = z
    .object({
      field: z.string(),
      operator: z.enum(OPERATORS, { error: () => `the operator must be one of ${OPERATORS.join(" ")}` }),
      value: z.string(),
    })
    .superRefine(({ field, operator, value }, ctx) => {
      const type = searchable[field];
      if (!type) {
        ctx.addIssue({ code: "custom", path: ["field"], message: `"${field}" cannot be searched; searchable fields: ${searchableNames.join(", ")}` });
        return;
      }
      if (!OPERATORS_BY_TYPE[type].includes(operator)) {
        ctx.addIssue({
          code: "custom",
          path: ["operator"],
          message: `"${operator}" does not fit ${field} (a ${type} field); use one of ${OPERATORS_BY_TYPE[type].join(" ")}`,
        });
      }
      if (value.includes("&")) {
        ctx.addIssue({
          code: "custom",
          path: ["value"],
          message: `the search value for ${field} contains "&", which the EMS search syntax cannot express (it separates conditions); remove it or search for a part without it`,
        });
      }
      if (value.trim() === "") ctx.addIssue({ code: "custom", path: ["value"], message: `the search value for ${field} is empty` });
      if (value.length > MAX_SEARCH_VALUE_LENGTH) {
        ctx.addIssue({ code: "custom", path: ["value"], message: `the search value for ${field} is longer than ${MAX_SEARCH_VALUE_LENGTH} characters` });
      }
      if (/[\u0000-\u001f\u007f]/.test(value)) {
        ctx.addIssue({ code: "custom", path: ["value"], message: `the search value for ${field} contains a control character` });
      }
      if ((operator === "=" || operator === "!=") && value.startsWith("*")) {
        ctx.addIssue({
          code: "custom",
          path: ["value"],
          message: `a value for "${operator}" cannot start with "*" (it would read as a text operator); use "=*contains*" instead`,
        });
      }
      if (type === "number" && !/^-?\d{1,15}$/.test(value)) {
        ctx.addIssue({ code: "custom", path: ["value"], message: `${field} is a number field; "${value}" is not a whole number` });
      }
      if (type === "date" && !operator.includes("*")) {
        const timestamp = TIMESTAMP_FIELDS.includes(field);
        const pattern = timestamp ? /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/ : /^\d{4}-\d{2}-\d{2}$/;
        if (!pattern.test(value)) {
          ctx.addIssue({
            code: "custom",
            path: ["value"],
            message: `${field} compares dates written ${timestamp ? "YYYY-MM-DD or YYYY-MM-DD HH:MM:SS" : "YYYY-MM-DD"}; "${value}" is not one (use "=*beginswith*" for a part of a date)`,
          });
        }
      }
    });

  const distinct = <T>(values: T[]) => new Set(values).size === values.length;

  return z
    .object({
      fields: z
        .array(z.enum(fields as unknown as [string, ...string[]], { error: (issue) => `unknown field "${String(issue.input)}"; fields: ${fields.join(", ")}` }))
        .refine(distinct, "a field is listed twice")
        .optional(),
      expand: z
        .array(
          resource === "webhook-groups"
            ? z.enum(WEBHOOK_GROUP_EXPAND, { error: (issue) => `"${String(issue.input)}" cannot be expanded; expand accepts webhooks` })
            : z.never({ error: () => "events have nothing to expand" }),
        )
        .refine(distinct, "expand lists a name twice")
        .optional(),
      search: z.array(condition).max(MAX_SEARCH_CONDITIONS, `at most ${MAX_SEARCH_CONDITIONS} search conditions`).optional(),
      searchCondition: z.enum(["and", "or"], { error: () => 'searchCondition must be "and" or "or"' }).optional(),
      page: z.number({ error: () => "page must be a whole number from 1" }).int("page must be a whole number from 1").min(1, "page must be a whole number from 1").optional(),
      perPage: z
        .number({ error: () => `perPage must be a whole number from 1 to ${MAX_PER_PAGE}` })
        .int(`perPage must be a whole number from 1 to ${MAX_PER_PAGE}`)
        .min(1, `perPage must be a whole number from 1 to ${MAX_PER_PAGE}`)
        .max(MAX_PER_PAGE, `perPage must be a whole number from 1 to ${MAX_PER_PAGE}`)
        .optional(),
      sort: z
        .array(
          z.object({
            field: z.enum(sortable as unknown as [string, ...string[]], { error: (issue) => `cannot sort by "${String(issue.input)}"; sortable: ${sortable.join(", ")}` }),
            direction: z.enum(["asc", "desc"], { error: () => 'a sort direction is "asc" or "desc"' }),
          }),
        )
        .refine((keys) => distinct(keys.map((key) => key.field)), "sort names a field twice")
        .optional(),
      ids: z
        .array(z.number({ error: () => "ids must be positive whole numbers" }).int("ids must be positive whole numbers").positive("ids must be positive whole numbers").max(Number.MAX_SAFE_INTEGER))
        .min(1, "ids, when given, lists at least one id")
        .max(MAX_IDS, `at most ${MAX_IDS} ids per request`)
        .optional(),
    })
    .strict();
}

export const webhookGroupQuerySchema = querySchemaFor("webhook-groups");
export const eventQuerySchema = querySchemaFor("events");

export type WebhookGroupQuery = {
  fields?: WebhookGroupField[];
  expand?: (typeof WEBHOOK_GROUP_EXPAND)[number][];
  search?: SearchCondition[];
  searchCondition?: "and" | "or";
  page?: number;
  perPage?: number;
  sort?: SortKey<"id" | "name">[];
  ids?: number[];
};

export type EventQuery = {
  fields?: EventField[];
  expand?: never[];
  search?: SearchCondition[];
  searchCondition?: "and" | "or";
  page?: number;
  perPage?: number;
  sort?: SortKey<EventField>[];
  ids?: number[];
};

export type QueryFor<R extends EmsResource> = R extends "events" ? EventQuery : WebhookGroupQuery;

export function querySchemaOf(resource: EmsResource) {
  return resource === "events" ? eventQuerySchema : webhookGroupQuerySchema;
}

/** Checks a query; throws InvalidQueryError with every problem, each written for a person. */
export function validateQuery<R extends EmsResource>(resource: R, query: QueryFor<R>): QueryFor<R> {
  const parsed = querySchemaOf(resource).safeParse(query);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) =>
      issue.code === "unrecognized_keys" ? `unknown query option ${issue.keys.map((key) => `"${key}"`).join(", ")}` : issue.message,
    );
    throw new InvalidQueryError([...new Set(issues)]);
  }
  return parsed.data as QueryFor<R>;
}

/** `name=*contains*summit`, before URL encoding. */
export function formatCondition(condition: SearchCondition): string {
  return `${condition.field}${condition.operator}${condition.value}`;
}

/**
 * The exact query string (no leading `?`) for a listing query, in a fixed parameter order:
 * `fields, expand, search, searchCondition, page, per-page, sort, ids`. Search conditions are
 * joined with an encoded `&` (`%26`); every value is percent-encoded, lists keep literal commas.
 * Throws InvalidQueryError for a query the contract does not allow (e.g. a value with `&`).
 */
export function buildQueryString<R extends EmsResource>(resource: R, query: QueryFor<R>): string {
  // Page renders repeat the same few queries: remember the strings of valid ones.
  const key = `${resource} ${JSON.stringify(query)}`;
  const known = builtQueryStrings.get(key);
  if (known !== undefined) return known;
  const built = buildValidQueryString(validateQuery(resource, query) as WebhookGroupQuery | EventQuery);
  if (builtQueryStrings.size >= MAX_REMEMBERED_QUERIES) builtQueryStrings.clear();
  builtQueryStrings.set(key, built);
  return built;
}

const MAX_REMEMBERED_QUERIES = 500;
const builtQueryStrings = new Map<string, string>();

function buildValidQueryString(valid: WebhookGroupQuery | EventQuery): string {
  const parts: string[] = [];
  const list = (values: readonly (string | number)[]) => values.map((value) => encodeURIComponent(String(value))).join(",");
  if (valid.fields?.length) parts.push(`fields=${list(valid.fields)}`);
  if (valid.expand?.length) parts.push(`expand=${list(valid.expand)}`);
  if (valid.search?.length) {
    parts.push(`search=${valid.search.map((condition) => encodeURIComponent(formatCondition(condition))).join("%26")}`);
    if (valid.searchCondition) parts.push(`searchCondition=${valid.searchCondition}`);
  }
  if (valid.page !== undefined) parts.push(`page=${valid.page}`);
  if (valid.perPage !== undefined) parts.push(`per-page=${valid.perPage}`);
  if (valid.sort?.length) parts.push(`sort=${list(valid.sort.map((key) => (key.direction === "desc" ? `-${key.field}` : key.field)))}`);
  if (valid.ids?.length) parts.push(`ids=${list(valid.ids)}`);
  return parts.join("&");
}
