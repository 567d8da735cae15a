import { z } from "zod";
import { SandboxHttpError } from "../core/errors";
import type { ResourceDescriptor } from "./descriptors";
import { parseSearch, type SearchCondition } from "./search";

/**
 * Query parameters of both listings (docs/ems-api.md §4.3), as zod schemas over the raw strings. The same
 * schemas produce the OpenAPI parameters (as their input side), so documentation cannot drift.
 * Every bad value is a 400 with a message that names the parameter and the value.
 */
export type SortKey = { field: string; descending: boolean };

export type ListQuery = {
  fields: string[] | undefined;
  expand: string[];
  search: SearchCondition[];
  searchCondition: "and" | "or";
  page: number;
  perPage: number;
  sort: SortKey[];
  ids: number[] | undefined;
};

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 200;
export const MAX_IDS = 100;

/** `a, b ,c` -> ["a","b","c"]; an empty entry is reported as an issue (undefined) rather than dropped. */
function commaList(ctx: z.RefinementCtx, value: string, parameter: string): string[] | undefined {
  const entries = value.split(",").map((entry) => entry.trim());
  if (entries.some((entry) => entry === "")) {
    ctx.addIssue({ code: "custom", message: `${parameter} has an empty entry in "${value}".` });
    return undefined;
  }
  return entries;
}

function fail(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: "custom", message });
  return z.NEVER as never;
}

/** Runs parseSearch, which throws a 400, and reports its message as a zod issue instead. */
function searchConditions(ctx: z.RefinementCtx, value: string, resource: ResourceDescriptor): SearchCondition[] {
  try {
    return parseSearch(value, resource);
  } catch (error) {
    if (error instanceof SandboxHttpError) return fail(ctx, error.message);
    throw error;
  }
}

export function listQuerySchema(resource: ResourceDescriptor) {
  const fieldList = resource.standardFields.join(", ");
  return z.object({
    fields: z
      .string()
      .meta({
        description: `Comma-separated standard fields: ${fieldList}.${resource.defaultFields.length < resource.standardFields.length ? ` Without it: ${resource.defaultFields.join(", ")} only.` : ""}`,
      })
      .optional()
      .transform((value, ctx) => {
        if (!value || value.trim() === "") return undefined;
        const fields = commaList(ctx, value, "fields");
        if (!fields) return z.NEVER;
        for (const field of fields) {
          if (!resource.standardFields.includes(field)) {
            const hint = resource.expandable.includes(field) ? ` (${field} is an extra field: ask for it with expand=${field})` : "";
            return fail(ctx, `Unknown field "${field}" in fields for ${resource.label}${hint}. Fields: ${fieldList}.`);
          }
        }
        return [...new Set(fields)];
      }),
    expand: z
      .string()
      .meta({ description: resource.expandable.length ? `Extra fields: ${resource.expandable.join(", ")}.` : "No extra fields exist for this resource." })
      .optional()
      .transform((value, ctx) => {
        if (!value || value.trim() === "") return [];
        const names = commaList(ctx, value, "expand");
        if (!names) return z.NEVER;
        for (const name of names) {
          if (!resource.expandable.includes(name)) {
            return fail(
              ctx,
              resource.expandable.length
                ? `Unknown expand "${name}" for ${resource.label}. Expandable: ${resource.expandable.join(", ")}.`
                : `Unknown expand "${name}": ${resource.label} have no extra fields.`,
            );
          }
        }
        return [...new Set(names)];
      }),
    search: z
      .string()
      .meta({
        description: `Conditions <field><operator><value> joined by & (sent as %26). Searchable: ${Object.keys(resource.searchable).join(", ")}. Operators: = != > < >= <= =*contains* =*beginswith* =*endswith* and their != negations (text and dates), and =*in* / !=*in* with |-separated values (every field; booleans take 0 or 1 with = != only).`,
        examples: ["name=*contains*summit", "id>=100&name!=*endswith*test", "id=*in*12|15|40"],
      })
      .optional()
      .transform((value, ctx) => (!value ? [] : searchConditions(ctx, value, resource))),
    searchCondition: z
      .string()
      .meta({ description: "How conditions combine: and (default) or or.", enum: ["and", "or"] })
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return "and" as const;
        const mode = value.trim().toLowerCase();
        if (mode !== "and" && mode !== "or") return fail(ctx, `searchCondition must be "and" or "or"; got "${value}".`);
        return mode;
      }),
    page: z
      .string()
      .meta({ description: "1-based page number; past the last page, the last page is returned.", pattern: "^[0-9]+$" })
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return 1;
        const page = /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : NaN;
        if (!(page >= 1)) return fail(ctx, `page must be an integer of 1 or more; got "${value}".`);
        return page;
      }),
    "per-page": z
      .string()
      .meta({ description: `Results per page, 1 to ${MAX_PER_PAGE}; default ${DEFAULT_PER_PAGE}.`, pattern: "^[0-9]+$" })
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return DEFAULT_PER_PAGE;
        const perPage = /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : NaN;
        if (!(perPage >= 1 && perPage <= MAX_PER_PAGE)) return fail(ctx, `per-page must be an integer from 1 to ${MAX_PER_PAGE}; got "${value}".`);
        return perPage;
      }),
    sort: z
      .string()
      .meta({ description: `Comma-separated fields, - prefix for descending, e.g. -id,name. Sortable: ${resource.sortable.join(", ")}.` })
      .optional()
      .transform((value, ctx) => {
        if (!value || value.trim() === "") return [];
        const entries = commaList(ctx, value, "sort");
        if (!entries) return z.NEVER;
        const keys: SortKey[] = [];
        for (const entry of entries) {
          const descending = entry.startsWith("-");
          const field = descending ? entry.slice(1) : entry;
          if (!resource.sortable.includes(field)) {
            return fail(ctx, `Unknown sort field "${field}" for ${resource.label}. Sortable fields: ${resource.sortable.join(", ")}.`);
          }
          if (!keys.some((key) => key.field === field)) keys.push({ field, descending });
        }
        return keys;
      }),
    ids: z
      .string()
      .meta({ description: `Comma-separated positive integers, at most ${MAX_IDS} (duplicates count once).`, pattern: "^\\s*[0-9]+\\s*(,\\s*[0-9]+\\s*)*$" })
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        const ids = new Set<number>();
        for (const entry of value.split(",").map((part) => part.trim())) {
          if (entry === "") return fail(ctx, `ids must be comma-separated positive integers; "${value}" has an empty entry.`);
          const id = /^\d{1,15}$/.test(entry) ? Number(entry) : NaN;
          if (!(id >= 1)) return fail(ctx, `ids must be comma-separated positive integers; "${entry}" is not one.`);
          ids.add(id);
        }
        if (ids.size > MAX_IDS) return fail(ctx, `ids accepts at most ${MAX_IDS} ids; got ${ids.size}.`);
        return [...ids];
      }),
  });
}

const schemaCache = new Map<ResourceDescriptor, ReturnType<typeof listQuerySchema>>();

/** Raw parameter strings from the query; the last occurrence of a repeated name wins, as in PHP. */
function rawParameters(query: string): Record<string, string> {
  const raw: Record<string, string> = {};
  if (query === "") return raw;
  for (const [name, value] of new URLSearchParams(query)) raw[name] = value;
  return raw;
}

/**
 * Parsed queries are pure functions of the query string, so recent ones are remembered per
 * resource: a client repeating a query (paging links differ only in page) skips re-validation.
 * Only successes are kept; results are never mutated.
 */
const PARSED_CACHE_SIZE = 256;
const parsedCache = new Map<ResourceDescriptor, Map<string, ListQuery>>();

export function parseListQuery(query: string, resource: ResourceDescriptor): ListQuery {
  let cache = parsedCache.get(resource);
  if (!cache) {
    cache = new Map();
    parsedCache.set(resource, cache);
  }
  let parsed = cache.get(query);
  if (!parsed) {
    parsed = validateListQuery(query, resource);
    if (cache.size >= PARSED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(query, parsed);
  }
  return parsed;
}

function validateListQuery(query: string, resource: ResourceDescriptor): ListQuery {
  let schema = schemaCache.get(resource);
  if (!schema) {
    schema = listQuerySchema(resource);
    schemaCache.set(resource, schema);
  }
  const result = schema.safeParse(rawParameters(query));
  if (!result.success) throw new SandboxHttpError(400, result.error.issues[0]?.message ?? "Invalid query parameters.");
  const { "per-page": perPage, ...rest } = result.data;
  return { ...rest, perPage };
}
