import type { AccountDataset } from "../data/datasets";
import type { Table } from "../data/table";
import { JSON_CONTENT_TYPE, type SandboxRequest, type SandboxResponse } from "../core/http-types";
import type { SandboxQuirks } from "./controls";
import { EVENTS, WEBHOOK_GROUPS, type ResourceDescriptor } from "./descriptors";
import { parseListQuery, type ListQuery, type SortKey } from "./query";
import { searchMask } from "./search";

/** `GET /api/v1/webhook-groups` and `GET /api/v1/events` (contract 4): filter, sort, page, project. */
export const LISTING_RESOURCES = ["webhook-groups", "events"] as const;
export type ListingResource = (typeof LISTING_RESOURCES)[number];

export const DESCRIPTORS: Record<ListingResource, ResourceDescriptor> = {
  "webhook-groups": WEBHOOK_GROUPS,
  events: EVENTS,
};

type Row = { id: number } & Record<string, unknown>;

/**
 * The matching rows of one page, in the requested order, and how many match in all. A sort on one
 * field walks that field's presorted order and stops once the page is full (the total comes from
 * the search mask), so 100,000 rows are neither sorted nor fully walked per request; several sort
 * fields compare precomputed ranks.
 */
function selectPage(table: Table<Row>, query: ListQuery, resource: ResourceDescriptor): { count: number; page: (start: number, end: number) => number[] } {
  const found = searchMask(table, query.search, query.searchCondition, resource);
  const mask = found?.mask;
  const sortKeys = query.sort;

  if (query.ids) {
    const picked: number[] = [];
    for (const id of query.ids) {
      const index = table.indexOfId(id);
      if (index !== undefined && (!mask || mask[index])) picked.push(index);
    }
    picked.sort(sortKeys.length ? rankComparator(table, sortKeys) : (a, b) => a - b);
    return { count: picked.length, page: (start, end) => picked.slice(start, end) };
  }

  if (sortKeys.length > 1) {
    // Walk the first key's presorted order, then sort only runs that tie on it by the other keys.
    const [firstKey, ...otherKeys] = sortKeys;
    const order = table.order(firstKey.field, firstKey.descending);
    const firstRank = table.rank(firstKey.field);
    const picked: number[] = [];
    for (let position = 0; position < order.length; position++) if (!mask || mask[order[position]]) picked.push(order[position]);
    const tieBreak = rankComparator(table, otherKeys);
    for (let runStart = 0; runStart < picked.length; ) {
      let runEnd = runStart + 1;
      while (runEnd < picked.length && firstRank[picked[runEnd]] === firstRank[picked[runStart]]) runEnd++;
      if (runEnd - runStart > 1) {
        const run = picked.slice(runStart, runEnd).sort(tieBreak);
        for (let i = 0; i < run.length; i++) picked[runStart + i] = run[i];
      }
      runStart = runEnd;
    }
    return { count: picked.length, page: (start, end) => picked.slice(start, end) };
  }

  const order = sortKeys.length === 1 ? table.order(sortKeys[0].field, sortKeys[0].descending) : undefined;
  const rowAt = order ? (position: number) => order[position] : (position: number) => position;
  if (!mask) {
    return { count: table.size, page: (start, end) => Array.from({ length: Math.max(0, end - start) }, (_, i) => rowAt(start + i)) };
  }
  return {
    count: found.count,
    page: (start, end) => {
      const rows: number[] = [];
      let seen = 0;
      for (let position = 0; position < table.size && seen < end; position++) {
        const index = rowAt(position);
        if (mask[index]) {
          if (seen >= start) rows.push(index);
          seen++;
        }
      }
      return rows;
    },
  };
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

function projector(resource: ResourceDescriptor, query: ListQuery, dataset: AccountDataset, quirks: SandboxQuirks, table: Table<Row>) {
  const fields = query.fields ?? resource.defaultFields;
  const expandWebhooks = query.expand.includes("webhooks");
  const allStandard = fields.length === resource.standardFields.length;
  if (allStandard && !expandWebhooks) return (index: number) => table.row(index);
  const selected = resource.standardFields.filter((field) => fields.includes(field));
  return (index: number) => {
    const row = table.row(index);
    const item: Record<string, unknown> = {};
    for (const field of selected) item[field] = row[field];
    if (expandWebhooks) {
      const hooks = dataset.webhooksOf(index);
      item.webhooks = quirks.webhooksAsObject ? Object.fromEntries(hooks.map((hook) => [String(hook.id), hook])) : hooks;
    }
    return item;
  };
}

function pageLink(request: SandboxRequest, page: number, perPage: number): string {
  const params = new URLSearchParams(request.query);
  params.set("page", String(page));
  params.set("per-page", String(perPage));
  return `${request.baseUrl}${request.path}?${params.toString()}`;
}

export function handleListing(resourceName: ListingResource, request: SandboxRequest, dataset: AccountDataset, quirks: SandboxQuirks): SandboxResponse {
  const resource = DESCRIPTORS[resourceName];
  const table = (resourceName === "events" ? dataset.events : dataset.groups) as unknown as Table<Row>;
  const query = parseListQuery(request.query, resource);
  const selection = selectPage(table, query, resource);

  const { perPage } = query;
  const totalCount = selection.count;
  const pageCount = Math.ceil(totalCount / perPage);
  // Past the last page, the framework answers the last page again and says so in currentPage.
  const currentPage = Math.max(1, Math.min(query.page, pageCount));
  const start = (currentPage - 1) * perPage;
  const end = Math.min(totalCount, start + perPage);
  const project = projector(resource, query, dataset, quirks, table);
  const items = selection.page(start, end).map(project);

  const lastPage = Math.max(1, pageCount);
  const links: Record<string, { href: string }> = {
    self: { href: pageLink(request, currentPage, perPage) },
    first: { href: pageLink(request, 1, perPage) },
    last: { href: pageLink(request, lastPage, perPage) },
  };
  if (currentPage > 1) links.prev = { href: pageLink(request, currentPage - 1, perPage) };
  if (currentPage < pageCount) links.next = { href: pageLink(request, currentPage + 1, perPage) };
  const meta = { totalCount, pageCount, currentPage, perPage };

  return {
    status: 200,
    headers: {
      "content-type": JSON_CONTENT_TYPE,
      "x-pagination-total-count": String(totalCount),
      "x-pagination-page-count": String(pageCount),
      "x-pagination-current-page": String(currentPage),
      "x-pagination-per-page": String(perPage),
      link: Object.entries(links).map(([rel, { href }]) => `<${href}>; rel=${rel}`).join(", "),
    },
    body: JSON.stringify({ items, _links: links, _meta: meta }),
  };
}
