/**
 * Every option of a listing page lives in its URL. One zod schema per page parses the URL; a bad
 * value never fails the page: it is dropped (only the bad entry of a list), the page falls back to
 * the default for it, and a notice says what was ignored and why. Writing a state back into its URL
 * is ./href's (browser-safe: the toolbar builds its links with it).
 *
 * URL parameters (names follow the API's where they mean the same):
 *   fields=id,name  expand=webhooks  filter=<field><op><value> (repeated)  searchCondition=and|or
 *   sort=-id,name  page=2  per-page=20|50|100|200  ids=1,2,3  view=<saved view id>
 *   check=<Health check id>  (the records the check finds, from Health's stored result:
 *   lib/listing-page/check-filter.ts; only on the list of the kind of record the check looks at)
 */
import { z } from "zod";
import { DEFAULT_PER_PAGE, MAX_SEARCH_CONDITIONS, OPERATORS_BY_TYPE, type SortKey } from "@/lib/ems/contract";
import { querySchemaOf } from "@/lib/ems/query";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import { parseFilter, type FilterCondition } from "./filters";
import { CHECKS, isRuleId, type RuleId } from "@/lib/setup/checks";
import { formatIdList, parseIdList } from "./ids";
import { MAX_SORT_LEVELS, PER_PAGE_OPTIONS, SUBJECT_KIND_OF, listingConfig, type ListingResource, type ResourceConfig } from "./resources";

export interface ListingState {
  resource: ListingResource;
  /** The columns shown, in the order chosen. */
  fields: string[];
  expand: string[];
  filters: FilterCondition[];
  searchCondition: "and" | "or";
  page: number;
  perPage: number;
  sort: SortKey[];
  ids: number[];
  /** What the "only these ids" box shows: the text as typed when it could not be used. */
  idsText: string;
  /** Precise problems with the ids box; the ids are then not applied. */
  idsErrors: string[];
  view: string | null;
  /** Only the records this Health check finds (`check=`), or null. */
  check: RuleId | null;
  /** Everything that was ignored in the URL, in words. */
  notices: string[];
}

export type SearchParamsInput = URLSearchParams | PageSearchParams;

const LIST_KEYS = ["fields", "expand", "filter", "sort"] as const;
const KEY_LABELS: Record<string, string> = {
  fields: "Columns",
  expand: "Show webhooks",
  filter: "Filter",
  searchCondition: "Match",
  sort: "Sort",
  page: "Page",
  "per-page": "Rows per page",
  ids: "Only these ids",
  view: "View",
  check: "Health check",
};

/** A parameter of the listing (own keys only: `?constructor=1` or `?toString=1` is not one). */
function isListingKey(key: string): boolean {
  return Object.hasOwn(KEY_LABELS, key);
}

/** Read through a real URLSearchParams: Next.js's object can hold a function for `?toString=1`. */
function toEntries(input: SearchParamsInput): [string, string][] {
  return [...pageSearchParams(input).entries()];
}

const splitList = (values: string[]) =>
  values
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");

/** The URL as a plain object of strings and lists, ready for the schema. */
function rawFromSearchParams(input: SearchParamsInput): Record<string, unknown> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of toEntries(input)) {
    // An empty field of a GET form means "not set", not "set to nothing".
    if (value.trim() === "") continue;
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  }
  const raw: Record<string, unknown> = {};
  for (const [key, values] of grouped) {
    if (key === "fields" || key === "expand" || key === "sort") raw[key] = splitList(values);
    else if (key === "filter") raw[key] = values.filter((v) => v !== "");
    else if (key === "ids") raw[key] = values.join(",");
    else if (isListingKey(key)) raw[key] = values[values.length - 1];
    // Unknown parameters (utm_*, a typo) are ignored without a notice: they change nothing.
  }
  return raw;
}

/** The one schema of a listing page's URL. */
export function listingSearchParamsSchema(config: ResourceConfig) {
  const fieldName = z.string().refine((f) => config.fields.includes(f), {
    error: (issue) => `“${String(issue.input)}” is not a column of ${config.title.toLowerCase()}.`,
  });
  const expandName = z.string().refine((e) => config.expandable.includes(e), {
    error: (issue) => `“${String(issue.input)}” cannot be expanded here.`,
  });
  const filter = z.string().transform((text, ctx) => {
    const parsed = parseFilter(text, config.searchable, OPERATORS_BY_TYPE);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }
    // The EMS client's schema has the last word on what a condition may be.
    const checked = querySchemaOf(config.resource).safeParse({ search: [parsed.condition] });
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? "this filter cannot be sent";
      ctx.addIssue({ code: "custom", message: `${message[0].toUpperCase()}${message.slice(1)}.` });
      return z.NEVER;
    }
    return parsed.condition;
  });
  const sortKey = z.string().transform((text, ctx): SortKey => {
    const direction = text.startsWith("-") ? "desc" : "asc";
    const field = text.replace(/^[-+]/, "");
    if (!config.sortable.includes(field)) {
      ctx.addIssue({ code: "custom", message: `${config.title} cannot be sorted by “${field}”.` });
      return z.NEVER;
    }
    return { field, direction };
  });
  const positiveInt = (what: string, max: number) =>
    z
      .string()
      .regex(/^\d+$/, { error: `${what} must be a whole number.` })
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(1, { error: `${what} starts at 1.` })
          .max(max, { error: `${what} can be at most ${max}.` }),
      );

  return z.object({
    fields: z.array(fieldName).optional(),
    expand: z.array(expandName).optional(),
    filter: z
      .array(filter)
      .max(MAX_SEARCH_CONDITIONS, { error: `At most ${MAX_SEARCH_CONDITIONS} filters are used.` })
      .optional(),
    searchCondition: z.enum(["and", "or"], { error: "Match must be “and” or “or”." }).optional(),
    // At most MAX_SORT_LEVELS levels: the first ones are kept (parseListingSearchParams), not all dropped.
    sort: z.array(sortKey).optional(),
    page: positiveInt("The page", 1_000_000).optional(),
    "per-page": z
      .string()
      .refine((v) => (PER_PAGE_OPTIONS as readonly number[]).includes(Number(v)), {
        error: `Rows per page must be one of ${PER_PAGE_OPTIONS.join(", ")}.`,
      })
      .transform(Number)
      .optional(),
    ids: z
      .string()
      .transform((text, ctx) => {
        const parsed = parseIdList(text);
        if (!parsed.ok) {
          for (const message of parsed.errors) ctx.addIssue({ code: "custom", message });
          return z.NEVER;
        }
        return parsed.ids;
      })
      .optional(),
    view: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "That is not a saved view's id." })
      .optional(),
    check: z
      .string()
      .transform((text, ctx): RuleId => {
        if (!isRuleId(text)) {
          ctx.addIssue({ code: "custom", message: `“${text.slice(0, 60)}” is not one of Health's checks.` });
          return z.NEVER;
        }
        const looksAt = CHECKS[text].looksAt;
        if (looksAt !== SUBJECT_KIND_OF[config.resource]) {
          ctx.addIssue({ code: "custom", message: `“${CHECKS[text].title}” finds ${SUBJECT_KIND_WORDS[looksAt]}, not ${config.title.toLowerCase()}.` });
          return z.NEVER;
        }
        return text;
      })
      .optional(),
  });
}

const SUBJECT_KIND_WORDS = { group: "webhook groups", webhook: "webhooks", event: "events" } as const;

type ParsedUrl = z.output<ReturnType<typeof listingSearchParamsSchema>>;

// Building a zod schema costs more than using it: one per resource, made once.
const schemas = new Map<ListingResource, ReturnType<typeof listingSearchParamsSchema>>();
function schemaOf(config: ResourceConfig) {
  let schema = schemas.get(config.resource);
  if (!schema) schemas.set(config.resource, (schema = listingSearchParamsSchema(config)));
  return schema;
}

/**
 * Parses a listing URL with fallback: each failing entry (or key) is removed and the URL parsed
 * again, so one bad filter costs only that filter.
 */
export function parseListingSearchParams(resource: ListingResource, input: SearchParamsInput): ListingState {
  const config = listingConfig(resource);
  const schema = schemaOf(config);
  const raw = rawFromSearchParams(input);
  const rawIds = typeof raw.ids === "string" ? raw.ids : "";
  const notices: string[] = [];
  let idsErrors: string[] = [];
  let parsed: ParsedUrl | undefined;

  for (let attempt = 0; attempt < 50 && !parsed; attempt++) {
    const result = schema.safeParse(raw);
    if (result.success) {
      parsed = result.data;
      break;
    }
    const dropKeys = new Set<string>();
    const dropItems = new Map<string, Set<number>>();
    for (const issue of result.error.issues) {
      const [key, index] = issue.path as [string | undefined, unknown];
      if (key === undefined) continue;
      if (key === "ids") {
        idsErrors.push(issue.message);
        dropKeys.add(key);
        continue;
      }
      const label = isListingKey(key) ? KEY_LABELS[key] : key;
      notices.push(`${label}: ${issue.message} It was ignored.`);
      if ((LIST_KEYS as readonly string[]).includes(key) && typeof index === "number") {
        dropItems.set(key, (dropItems.get(key) ?? new Set()).add(index));
      } else {
        dropKeys.add(key);
      }
    }
    if (dropKeys.size === 0 && dropItems.size === 0) {
      // Nothing we know how to drop (should not happen): start from the defaults.
      notices.push("The address had options that could not be read; the defaults are shown.");
      for (const key of Object.keys(raw)) delete raw[key];
      continue;
    }
    for (const key of dropKeys) delete raw[key];
    for (const [key, indexes] of dropItems) {
      const list = raw[key] as unknown[];
      raw[key] = list.filter((_, i) => !indexes.has(i));
    }
  }
  if (!parsed) parsed = {};
  idsErrors = [...new Set(idsErrors)];

  const fields = dedupe(parsed.fields ?? []);
  const sort: SortKey[] = [];
  for (const key of parsed.sort ?? []) if (!sort.some((s) => s.field === key.field)) sort.push(key);
  if (sort.length > MAX_SORT_LEVELS) {
    notices.push(`${KEY_LABELS.sort}: at most ${MAX_SORT_LEVELS} levels are used; the ones after the first ${MAX_SORT_LEVELS} were ignored.`);
    sort.length = MAX_SORT_LEVELS;
  }

  return {
    resource,
    fields: fields.length > 0 ? fields : [...config.defaultFields],
    expand: dedupe(parsed.expand ?? []),
    filters: parsed.filter ?? [],
    searchCondition: parsed.searchCondition ?? "and",
    page: parsed.page ?? 1,
    perPage: parsed["per-page"] ?? DEFAULT_PER_PAGE,
    sort: sort.length > 0 ? sort : [...config.defaultSort],
    ids: parsed.ids ?? [],
    idsText: idsErrors.length > 0 ? rawIds : formatIdList(parsed.ids ?? []),
    idsErrors,
    view: parsed.view ?? null,
    check: parsed.check ?? null,
    notices,
  };
}

function dedupe<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** True when the URL carries no listing option at all (a default view may then apply). */
export function hasListingOptions(input: SearchParamsInput): boolean {
  return toEntries(input).some(([key]) => isListingKey(key) && key !== "view");
}
