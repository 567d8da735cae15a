import type { AccountDataset } from "../data/datasets";
import type { Table } from "../data/table";
import { JSON_CONTENT_TYPE, type SandboxRequest, type SandboxResponse } from "../core/http-types";
import type { SandboxQuirks } from "./controls";
import { SandboxHttpError } from "../core/errors";
import { EVENTS, WEBHOOK_GROUPS, WEBHOOKS, type ResourceDescriptor } from "./descriptors";
import { parseListQuery, type ListQuery, type SortKey } from "./query";
import { rowJsonCache } from "./row-json-cache";
import { searchMask } from "./search";

/**
 * `GET /api/v1/webhook-groups`, `/webhooks` and `/events` (docs/ems-api.md §4): filter, sort, page,
 * project; and one record of each, `GET /api/v1/<resource>/{id}` (§4.6).
 */
export const LISTING_RESOURCES = ["webhook-groups", "webhooks", "events"] as const;
export type ListingResource = (typeof LISTING_RESOURCES)[number];

export const DESCRIPTORS: Record<ListingResource, ResourceDescriptor> = {
  "webhook-groups": WEBHOOK_GROUPS,
  webhooks: WEBHOOKS,
  events: EVENTS,
};

function tableOf(resourceName: ListingResource, dataset: AccountDataset): Table<Row> {
  const table = resourceName === "events" ? dataset.events : resourceName === "webhooks" ? dataset.webhooks : dataset.groups;
  return table as unknown as Table<Row>;
}

type Row = { id: number } & Record<string, unknown>;

/**
 * The matching rows in the requested order, as cheaply as each case allows: an explicit list (ids,
 * several sort fields), or a presorted order (or natural order) filtered by an optional mask, walked
 * only as far as the page needs. The total comes from the search mask, so 100,000 rows are neither
 * sorted nor fully walked per request; several sort fields compare precomputed ranks.
 */
type Selection = { count: number; list?: number[]; order?: Int32Array; mask?: Uint8Array };

function select(table: Table<Row>, query: ListQuery, resource: ResourceDescriptor): Selection {
  const found = searchMask(table, query.search, query.searchCondition, resource);
  const mask = found?.mask;
  const sortKeys = query.sort;

  if (query.ids) {
    const list: number[] = [];
    for (const id of query.ids) {
      const index = table.indexOfId(id);
      if (index !== undefined && (!mask || mask[index])) list.push(index);
    }
    list.sort(sortKeys.length ? rankComparator(table, sortKeys) : (a, b) => a - b);
    return { count: list.length, list };
  }

  if (sortKeys.length > 1) {
    // Walk the first key's presorted order, then sort only runs that tie on it by the other keys.
    const [firstKey, ...otherKeys] = sortKeys;
    const order = table.order(firstKey.field, firstKey.descending);
    const firstRank = table.rank(firstKey.field);
    const list: number[] = [];
    for (let position = 0; position < order.length; position++) if (!mask || mask[order[position]]) list.push(order[position]);
    const tieBreak = rankComparator(table, otherKeys);
    for (let runStart = 0; runStart < list.length;) {
      let runEnd = runStart + 1;
      while (runEnd < list.length && firstRank[list[runEnd]] === firstRank[list[runStart]]) runEnd++;
      if (runEnd - runStart > 1) {
        const run = list.slice(runStart, runEnd).sort(tieBreak);
        for (let i = 0; i < run.length; i++) list[runStart + i] = run[i];
      }
      runStart = runEnd;
    }
    return { count: list.length, list };
  }

  const order = sortKeys.length === 1 ? table.order(sortKeys[0].field, sortKeys[0].descending) : undefined;
  return { count: found ? found.count : table.size, order, mask };
}

/** Row indexes at positions [start, end) of a selection. */
function pageOf(selection: Selection, size: number, start: number, end: number): number[] {
  const { list, order, mask } = selection;
  if (list) return list.slice(start, end);
  const rows: number[] = [];
  if (!mask) {
    for (let position = start; position < end; position++) rows.push(order ? order[position] : position);
    return rows;
  }
  let seen = 0;
  for (let position = 0; position < size && seen < end; position++) {
    const index = order ? order[position] : position;
    if (mask[index]) {
      if (seen >= start) rows.push(index);
      seen++;
    }
  }
  return rows;
}

function rankComparator(table: Table<Row>, sortKeys: readonly SortKey[]): (a: number, b: number) => number {
  const keys = sortKeys.map((key) => ({ rank: table.rank(key.field), sign: key.descending ? -1 : 1 }));
  return (a, b) => {
    for (const { rank, sign } of keys) {
      const difference = rank[a] - rank[b];
      if (difference !== 0) return sign * difference;
    }
    return a - b;
  };
}

type Projection = {
  table: Table<Row>;
  dataset: AccountDataset;
  /** standard fields to include, in the resource's order */
  selected: readonly string[];
  /** every standard field and no expansion: the stored row is the item */
  whole: boolean;
  webhooks: "none" | "array" | "object";
};

function projectRow(projection: Projection, index: number): unknown {
  const row = projection.table.row(index);
  if (projection.whole) return row;
  const item: Record<string, unknown> = {};
  for (const field of projection.selected) item[field] = row[field];
  if (projection.webhooks !== "none") {
    const hooks = projection.dataset.webhooksOf(index);
    item.webhooks = projection.webhooks === "object" ? Object.fromEntries(hooks.map((hook) => [String(hook.id), hook])) : hooks;
  }
  return item;
}

/** The JSON of each row for the requested fields and expansions, from the per-row cache when possible. */
function serializeRows(
  indexes: readonly number[],
  resource: ResourceDescriptor,
  query: ListQuery,
  dataset: AccountDataset,
  quirks: SandboxQuirks,
  table: Table<Row>,
): string[] {
  const fields = query.fields ?? resource.defaultFields;
  const webhooks = !query.expand.includes("webhooks") ? "none" : quirks.webhooksAsObject ? "object" : "array";
  const selected = resource.standardFields.filter((field) => fields.includes(field));
  const projection: Projection = { table, dataset, selected, whole: selected.length === resource.standardFields.length && webhooks === "none", webhooks };
  const cache = rowJsonCache(table, `${selected.join(",")}|${webhooks}`, table.size);
  const json: string[] = new Array(indexes.length);
  for (let i = 0; i < indexes.length; i++) {
    const index = indexes[i];
    json[i] = cache[index] ??= JSON.stringify(projectRow(projection, index));
  }
  return json;
}

/** Builds the page links: the request's other parameters, then `page` and `per-page`. */
function pageLinker(request: SandboxRequest): (page: number, perPage: number) => string {
  let rest = "";
  if (request.query !== "") {
    const params = new URLSearchParams(request.query);
    params.delete("page");
    params.delete("per-page");
    rest = params.toString();
  }
  const prefix = `${request.baseUrl}${request.path}?${rest}${rest ? "&" : ""}page=`;
  return (page, perPage) => `${prefix}${page}&per-page=${perPage}`;
}

/**
 * Recent listing answers per dataset. A dataset never changes (an edit makes a new one:
 * data/edited-accounts.ts), so an answer depends only on the path, the query, the base URL (links)
 * and the quirks: a client repeating a request (a dashboard refresh, the default page) gets the
 * finished body. Bad queries are not cached.
 */
const ANSWER_CACHE_SIZE = 64;
const ANSWER_CACHE_MAX_BODY = 64 * 1024;
const answerCaches = new WeakMap<AccountDataset, Map<string, { headers: Record<string, string>; body: string }>>();

export function handleListing(resourceName: ListingResource, request: SandboxRequest, dataset: AccountDataset, quirks: SandboxQuirks): SandboxResponse {
  let cache = answerCaches.get(dataset);
  if (!cache) {
    cache = new Map();
    answerCaches.set(dataset, cache);
  }
  const key = `${quirks.webhooksAsObject ? "o" : "a"} ${request.baseUrl}${request.path}?${request.query}`;
  const cached = cache.get(key);
  // Headers are copied: the caller adds rate-limit and Date headers to each answer.
  if (cached) return { status: 200, headers: { ...cached.headers }, body: cached.body };
  const answer = buildListing(resourceName, request, dataset, quirks);
  if (answer.body.length <= ANSWER_CACHE_MAX_BODY) {
    if (cache.size >= ANSWER_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, { headers: { ...answer.headers }, body: answer.body });
  }
  return answer;
}

function buildListing(resourceName: ListingResource, request: SandboxRequest, dataset: AccountDataset, quirks: SandboxQuirks): SandboxResponse {
  const resource = DESCRIPTORS[resourceName];
  const table = tableOf(resourceName, dataset);
  const query = parseListQuery(request.query, resource);
  const selection = select(table, query, resource);

  const { perPage } = query;
  const totalCount = selection.count;
  const pageCount = Math.ceil(totalCount / perPage);
  // Past the last page, the framework answers the last page again and says so in currentPage.
  const currentPage = Math.max(1, Math.min(query.page, pageCount));
  const start = (currentPage - 1) * perPage;
  const end = Math.min(totalCount, start + perPage);
  const items = serializeRows(pageOf(selection, table.size, start, end), resource, query, dataset, quirks, table);

  const lastPage = Math.max(1, pageCount);
  const pageLink = pageLinker(request);
  const links: Record<string, { href: string }> = {
    self: { href: pageLink(currentPage, perPage) },
    first: { href: pageLink(1, perPage) },
    last: { href: pageLink(lastPage, perPage) },
  };
  if (currentPage > 1) links.prev = { href: pageLink(currentPage - 1, perPage) };
  if (currentPage < pageCount) links.next = { href: pageLink(currentPage + 1, perPage) };
  const meta = { totalCount, pageCount, currentPage, perPage };

  return {
    status: 200,
    headers: {
      "content-type": JSON_CONTENT_TYPE,
      "x-pagination-total-count": String(totalCount),
      "x-pagination-page-count": String(pageCount),
      "x-pagination-current-page": String(currentPage),
      "x-pagination-per-page": String(perPage),
      link: Object.entries(links)
        .map(([rel, { href }]) => `<${href}>; rel=${rel}`)
        .join(", "),
    },
    body: `{"items":[${items.join(",")}],"_links":${JSON.stringify(links)},"_meta":${JSON.stringify(meta)}}`,
  };
}

const SINGULAR: Record<ListingResource, string> = { "webhook-groups": "webhook group", webhooks: "webhook", events: "event" };

/**
 * `GET /api/v1/<resource>/{id}` (docs/ems-api.md §4.6): the record itself, no envelope, shaped by
 * `fields` and `expand` as in a listing (the other listing parameters are checked the same way and
 * otherwise ignored). An id that is not a positive integer is a 400; a record that is not in this
 * account's data, a 404.
 */
export function handleSingleRecord(
  resourceName: ListingResource,
  rawId: string,
  request: SandboxRequest,
  dataset: AccountDataset,
  quirks: SandboxQuirks,
): SandboxResponse {
  const resource = DESCRIPTORS[resourceName];
  const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : NaN;
  if (!(id >= 1)) {
    const article = resourceName === "events" ? "an" : "a";
    throw new SandboxHttpError(400, `"${rawId.slice(0, 40)}" is not ${article} ${SINGULAR[resourceName]} id: ids are positive integers.`);
  }
  const query = parseListQuery(request.query, resource);
  const table = tableOf(resourceName, dataset);
  const index = table.indexOfId(id);
  if (index === undefined) throw new SandboxHttpError(404, `No ${SINGULAR[resourceName]} with id ${id}.`);
  const [json] = serializeRows([index], resource, query, dataset, quirks, table);
  return { status: 200, headers: { "content-type": JSON_CONTENT_TYPE }, body: json };
}
