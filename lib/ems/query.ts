import "server-only";
import { z } from "zod";
import {
  EVENT_FIELDS,
  MAX_IDS,
  MAX_PER_PAGE,
  MAX_SEARCH_CONDITIONS,
  MAX_SEARCH_VALUE_LENGTH,
  OPERATORS,
  OPERATORS_BY_TYPE,
  SEARCHABLE_FIELDS,
  SORTABLE_FIELDS,
  WEBHOOK_FIELDS,
  WEBHOOK_GROUP_EXPAND,
  WEBHOOK_GROUP_FIELDS,
  dateFormatOf,
  formatCondition,
  formatSortKey,
  searchValueProblems,
  type EmsApiResource,
  type EventField,
  type FieldType,
  type SearchCondition,
  type SearchValueProblem,
  type SortKey,
  type WebhookField,
  type WebhookGroupField,
} from "./contract";
import { InvalidQueryError } from "./errors";

/**
 * The listing queries of the EMS API (docs/ems-api.md §4.3, §4.4): what may be asked for, checked
 * with the contract's limits and rules (lib/ems/contract.ts), and the one function that turns a
 * query into the exact query string.
 */

function searchValueMessage(field: string, type: FieldType, operator: string, value: string, problem: SearchValueProblem): string {
  switch (problem.kind) {
    case "empty":
      return `the search value for ${field} is empty`;
    case "ampersand":
      return `the search value for ${field} contains "&", which the EMS search syntax cannot express (it separates conditions); remove it or search for a part without it`;
    case "too-long":
      return `the search value for ${field} is longer than ${MAX_SEARCH_VALUE_LENGTH} characters`;
    case "control-character":
      return `the search value for ${field} contains a control character`;
    case "looks-like-operator":
      return `a value for "${operator}" cannot start with "*" (it would read as a text operator); use "=*contains*" instead`;
    case "not-a-number":
      return `${field} is a ${type} field; "${value}" is not a whole number${operator.endsWith("*in*") ? " (or whole numbers separated by |)" : ""}`;
    case "not-a-boolean":
      return `${field} is a yes/no field searched with 0 or 1; "${value}" is not one${operator.endsWith("*in*") ? " (or 0|1)" : ""}`;
    case "empty-list-entry":
      return `the list of values for ${field} has an empty entry ("${value}"); separate values with a single |`;
    case "not-a-date":
      return `${field} compares dates written ${dateFormatOf(problem)}; "${value}" is not one (use "=*beginswith*" for a part of a date)`;
  }
}

const FIELDS_OF = { "webhook-groups": WEBHOOK_GROUP_FIELDS, events: EVENT_FIELDS, webhooks: WEBHOOK_FIELDS } as const;
const NOTHING_TO_EXPAND = { events: "events have nothing to expand", webhooks: "webhooks have nothing to expand" } as const;

function querySchemaFor(resource: EmsApiResource) {
  const fields = FIELDS_OF[resource];
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
      for (const problem of searchValueProblems(field, type, operator, value)) {
        ctx.addIssue({ code: "custom", path: ["value"], message: searchValueMessage(field, type, operator, value, problem) });
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
            : z.never({ error: () => NOTHING_TO_EXPAND[resource] }),
        )
        .refine(distinct, "expand lists a name twice")
        .optional(),
      search: z.array(condition).max(MAX_SEARCH_CONDITIONS, `at most ${MAX_SEARCH_CONDITIONS} search conditions`).optional(),
      searchCondition: z.enum(["and", "or"], { error: () => 'searchCondition must be "and" or "or"' }).optional(),
      page: z
        .number({ error: () => "page must be a whole number from 1" })
        .int("page must be a whole number from 1")
        .min(1, "page must be a whole number from 1")
        .optional(),
      perPage: z
        .number({ error: () => `perPage must be a whole number from 1 to ${MAX_PER_PAGE}` })
        .int(`perPage must be a whole number from 1 to ${MAX_PER_PAGE}`)
        .min(1, `perPage must be a whole number from 1 to ${MAX_PER_PAGE}`)
        .max(MAX_PER_PAGE, `perPage must be a whole number from 1 to ${MAX_PER_PAGE}`)
        .optional(),
      sort: z
        .array(
          z.object({
            field: z.enum(sortable as unknown as [string, ...string[]], {
              error: (issue) => `cannot sort by "${String(issue.input)}"; sortable: ${sortable.join(", ")}`,
            }),
            direction: z.enum(["asc", "desc"], { error: () => 'a sort direction is "asc" or "desc"' }),
          }),
        )
        .refine((keys) => distinct(keys.map((key) => key.field)), "sort names a field twice")
        .optional(),
      ids: z
        .array(
          z
            .number({ error: () => "ids must be positive whole numbers" })
            .int("ids must be positive whole numbers")
            .positive("ids must be positive whole numbers")
            .max(Number.MAX_SAFE_INTEGER),
        )
        .min(1, "ids, when given, lists at least one id")
        .max(MAX_IDS, `at most ${MAX_IDS} ids per request`)
        .optional(),
    })
    .strict();
}

export const webhookGroupQuerySchema = querySchemaFor("webhook-groups");
export const eventQuerySchema = querySchemaFor("events");
export const webhookQuerySchema = querySchemaFor("webhooks");

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

export type WebhookQuery = {
  fields?: WebhookField[];
  expand?: never[];
  search?: SearchCondition[];
  searchCondition?: "and" | "or";
  page?: number;
  perPage?: number;
  sort?: SortKey<(typeof SORTABLE_FIELDS)["webhooks"][number]>[];
  ids?: number[];
};

export type QueryFor<R extends EmsApiResource> = R extends "events" ? EventQuery : R extends "webhooks" ? WebhookQuery : WebhookGroupQuery;

/** What a single-record read (§4.6) takes: the listing's `fields` and `expand`. */
export type RecordQueryFor<R extends EmsApiResource> = Pick<QueryFor<R>, "fields" | "expand">;

export function querySchemaOf(resource: EmsApiResource) {
  return resource === "events" ? eventQuerySchema : resource === "webhooks" ? webhookQuerySchema : webhookGroupQuerySchema;
}

/** Checks a query; throws InvalidQueryError with every problem, each written for a person. */
export function validateQuery<R extends EmsApiResource>(resource: R, query: QueryFor<R>): QueryFor<R> {
  const parsed = querySchemaOf(resource).safeParse(query);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) =>
      issue.code === "unrecognized_keys" ? `unknown query option ${issue.keys.map((key) => `"${key}"`).join(", ")}` : issue.message,
    );
    throw new InvalidQueryError([...new Set(issues)]);
  }
  return parsed.data as QueryFor<R>;
}

/**
 * The exact query string (no leading `?`) for a listing query, in a fixed parameter order:
 * `fields, expand, search, searchCondition, page, per-page, sort, ids`. Search conditions are
 * joined with an encoded `&` (`%26`); every value is percent-encoded, lists keep literal commas.
 * Throws InvalidQueryError for a query the contract does not allow (e.g. a value with `&`).
 */
export function buildQueryString<R extends EmsApiResource>(resource: R, query: QueryFor<R>): string {
  // Page renders repeat the same few queries: remember the strings of valid ones.
  const key = `${resource} ${JSON.stringify(query)}`;
  const known = builtQueryStrings.get(key);
  if (known !== undefined) return known;
  const built = buildValidQueryString(validateQuery(resource, query) as WebhookGroupQuery | EventQuery | WebhookQuery);
  if (builtQueryStrings.size >= MAX_REMEMBERED_QUERIES) builtQueryStrings.clear();
  builtQueryStrings.set(key, built);
  return built;
}

const MAX_REMEMBERED_QUERIES = 500;
const builtQueryStrings = new Map<string, string>();

function buildValidQueryString(valid: WebhookGroupQuery | EventQuery | WebhookQuery): string {
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
  if (valid.sort?.length) parts.push(`sort=${list(valid.sort.map(formatSortKey))}`);
  if (valid.ids?.length) parts.push(`ids=${list(valid.ids)}`);
  return parts.join("&");
}
