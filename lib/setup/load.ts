import "server-only";
import { createHash } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import {
  answerCache,
  canonicalQuery,
  declareRecordPages,
  emsConfig,
  MAX_PER_PAGE,
  type CiphertextSummary,
  type EmsClient,
  type EmsEvent,
  type EventQuery,
  type PeekedAnswer,
  type RateLimit,
  type SharedListOptions,
  type WebhookGroup,
  type WebhookGroupQuery,
} from "@/lib/ems";
import type { SetupData } from "@/lib/setup/setup-data";
import { loadShared, type Freshness, type ListingFailure, type RateBudget } from "@/lib/ems-access/shared-read";
import { log } from "@/lib/log";

/**
 * The account's whole webhook setup, for coverage and health checks: every webhook group with its
 * webhooks, and every event. Two listings, walked to their last page at `per-page=200`:
 *
 * - groups with `expand=webhooks` (each webhook comes inside its group, so the group's name and
 *   notification emails need no call of their own, and 200 groups' webhooks cost one call where the
 *   webhooks listing would cost one per 200 webhooks);
 * - events with the fields coverage needs (the API sends only id and name without `fields`).
 *
 * The demo account (140 groups, 60 events) costs 2 calls, 20 credits. Every page is a shared answer
 * (lib/ems/answer-cache.ts) kept for EMS_COVERAGE_CACHE_SECONDS (default 60 s) and spent as
 * "coverage" work, which stays out of the reserve kept for page views (lib/ems/budget.ts): when the
 * window is nearly spent the page says so rather than eat into it.
 */
export const SETUP_GROUPS_QUERY: WebhookGroupQuery = {
  fields: ["id", "name", "headers", "notification_emails"],
  expand: ["webhooks"],
  perPage: MAX_PER_PAGE,
  // A stable order, so that pages read at slightly different times neither skip nor repeat much.
  sort: [{ field: "id", direction: "asc" }],
};
export const SETUP_EVENTS_QUERY: EventQuery = {
  fields: ["id", "name", "status", "start_date", "end_date", "start_time", "end_time", "timezone"],
  perPage: MAX_PER_PAGE,
  sort: [{ field: "id", direction: "asc" }],
};

/** More pages than this (40,000 groups or events) are not read: the page says the data is partial. */
export const SETUP_MAX_PAGES = 200;
/**
 * Pages asked for at once by one setup read, both listings together (the first page of each says how
 * many there are). A page of 200 groups with their webhooks is parsed, checked and stored with
 * several copies of it in the heap at once: at four pages of each listing at once, a cold read of a
 * 5,000-group account (a plan's undo, once the answers aged out while it applied) had eight pages in
 * flight at the heap's peak (bench:memory). What it costs: on the sandbox over loopback none
 * measurable (a cold read of that account ~0.65-0.8 s either way); against a distant EMS, 35 calls
 * take about nine round trips instead of seven. Four in all keeps the groups' pages to
 * four, and the events' few small pages take a slot each in between.
 */
const PAGE_CONCURRENCY = 4;

/** At most `count` tasks running at once: the rest wait their turn, in order. */
function pageSlots(count: number): <T>(task: () => Promise<T>) => Promise<T> {
  let free = count;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

export interface SetupSnapshot {
  data: SetupData;
  /** The credential it was read with (names the health summary the navigation shows). */
  fingerprint: string;
  /** Calls this load made to the API (0 when every page was a shared answer). */
  calls: number;
  /** Calls a refresh of everything costs, and their credits: what the refresh button says. */
  refreshCalls: number;
  partial: boolean;
  /**
   * Which stored answers it was read from (`setupVersion`): what is computed from it can be stored
   * by it (lib/setup/stored-results.ts). Null when a page was not a stored answer.
   */
  version: SetupVersion | null;
}

/** The identity of a setup read from stored answers: the pages' counts and their ciphertexts' summaries, hashed. */
export interface SetupVersion {
  key: string;
  groupPages: number;
  eventPages: number;
}

/** The version of a setup read from these pages' stored answers, groups' first: null when one is missing. */
export function setupVersion(groupPages: readonly (CiphertextSummary | null)[], eventPages: readonly (CiphertextSummary | null)[]): SetupVersion | null {
  const hash = createHash("sha256").update(`${groupPages.length}:${eventPages.length}`);
  for (const summary of [...groupPages, ...eventPages]) {
    if (!summary) return null;
    hash.update(`\n${summary.length}:${summary.head}`);
  }
  return { key: hash.digest("hex"), groupPages: groupPages.length, eventPages: eventPages.length };
}

export type SetupOutcome = { kind: "ok"; snapshot: SetupSnapshot; budget: RateBudget | null; freshness: Freshness } | ListingFailure;

type Walked<T> = {
  items: readonly T[];
  calls: number;
  pages: number;
  partial: boolean;
  rateLimit: RateLimit | null;
  ageSeconds: number;
  stale: boolean;
  summaries: (CiphertextSummary | null)[];
};

/**
 * Called before each page is asked for, one page at a time when given: change history's syncs use
 * it to keep within their share of the rate limit (lib/history/pacing.ts). It may throw to stop.
 */
export type BeforePage = () => Promise<void>;

/**
 * The last join of each listing's pages, by its first page. Shared answers this process opened are
 * shared, frozen objects (lib/ems/opened-answers.ts): while every page is the same object as last
 * time, the join is the same array too, so what is computed from a setup (the health checks,
 * lib/health/checked.ts) can be kept by its identity. Weak: an entry goes with its first page.
 */
const joins = new WeakMap<readonly unknown[], { pages: readonly (readonly unknown[])[]; items: readonly unknown[] }>();

/** The pages' records, each once (production answers a page past the end with the last page again). */
function joinPages<Item extends { id: number }>(pages: readonly (readonly Item[])[]): readonly Item[] {
  const shared = pages.length > 0 && pages.every((page) => Object.isFrozen(page));
  const known = shared ? joins.get(pages[0]) : undefined;
  if (known && known.pages.length === pages.length && known.pages.every((page, index) => page === pages[index])) return known.items as readonly Item[];
  const seen = new Set<number>();
  const items: Item[] = [];
  for (const page of pages) {
    for (const item of page) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  if (!shared) return items;
  // Its records are frozen already (they are the pages'); the array is frozen too, for the next view.
  Object.freeze(items);
  joins.set(pages[0], { pages, items });
  return items;
}

/** The hash of each page's shared answer, pages 1 to SETUP_MAX_PAGES (the count is known only once page 1 is read). */
function pageHashes(resource: "webhook-groups" | "events", query: EventQuery | WebhookGroupQuery): string[] {
  return Array.from({ length: SETUP_MAX_PAGES }, (_, index) => canonicalQuery(resource, { ...query, page: index + 1 } as never).hash);
}

const PAGE_HASHES = { groups: null as string[] | null, events: null as string[] | null };

/** The hashes of the setup's pages' shared answers, pages 1 to SETUP_MAX_PAGES of groups and of events. */
export function setupPageHashes(): { groups: readonly string[]; events: readonly string[] } {
  if (!PAGE_HASHES.groups || !PAGE_HASHES.events) {
    PAGE_HASHES.groups = pageHashes("webhook-groups", SETUP_GROUPS_QUERY);
    PAGE_HASHES.events = pageHashes("events", SETUP_EVENTS_QUERY);
    // Pages of whole records in id order: a write drops only the page that holds what it wrote (lib/ems/writes.ts).
    declareRecordPages("webhook-groups", PAGE_HASHES.groups);
    declareRecordPages("events", PAGE_HASHES.events);
  }
  return { groups: PAGE_HASHES.groups, events: PAGE_HASHES.events };
}

/**
 * Every page's stored answer of both listings, looked at in one statement and the unopened ones
 * opened in a few (`answerCache.peekMany`): a process that has not opened a 5,000-group account's 35
 * pages read them one round trip after another, 70 in all, four at a time. Only a shortcut: on a
 * failure each page looks at its own row, as before.
 */
async function peekPages(client: EmsClient, shared: SharedListOptions): Promise<Map<string, PeekedAnswer>> {
  if (shared.refresh) return new Map();
  const hashes = setupPageHashes();
  try {
    return await answerCache.peekMany(client, [...hashes.groups, ...hashes.events], shared);
  } catch (error) {
    log.warn({ event: "setup.peek_failed", requestId: shared.requestId, err: error }, "the setup's stored answers could not be read at once");
    return new Map();
  }
}

async function walk<R extends "webhook-groups" | "events">(
  client: EmsClient,
  resource: R,
  query: R extends "events" ? EventQuery : WebhookGroupQuery,
  shared: SharedListOptions,
  beforePage?: BeforePage,
  peeked: ReadonlyMap<string, PeekedAnswer> = new Map(),
  slots = pageSlots(1),
): Promise<Walked<R extends "events" ? EmsEvent : WebhookGroup>> {
  type Item = R extends "events" ? EmsEvent : WebhookGroup;
  const hashes = resource === "events" ? PAGE_HASHES.events : PAGE_HASHES.groups;
  const ask = async (page: number) => {
    await beforePage?.();
    const peek = peeked.size > 0 ? peeked.get(hashes?.[page - 1] ?? "") : undefined;
    return answerCache.list(client, resource, { ...query, page } as never, peek ? { ...shared, peeked: peek } : shared);
  };
  const first = await slots(() => ask(1));
  const pageCount = Math.min(first.meta.pageCount, SETUP_MAX_PAGES);
  // Pages are shared answers of their own and may be of different ages: one that knows of more
  // pages than the first did means the account grew in between, and the snapshot says it is partial.
  const answers = [first];
  // Once a page failed this listing asks for no more, not even a page already waiting for its slot (the read fails with it).
  let failed = false;
  let next = 2;
  const worker = async () => {
    while (!failed && next <= pageCount) {
      const page = next++;
      const answer = await slots(async () => {
        if (failed) return null;
        try {
          return await ask(page);
        } catch (error) {
          failed = true;
          throw error;
        }
      });
      if (answer) answers[page - 1] = answer;
    }
  };
  await Promise.all(Array.from({ length: Math.min(beforePage ? 1 : PAGE_CONCURRENCY, pageCount - 1) }, worker));
  const items = joinPages(answers.map((answer) => answer.items as readonly Item[]));
  const newest = answers.reduce((latest, answer) => (answer.ageSeconds < latest.ageSeconds ? answer : latest));
  return {
    items,
    calls: answers.filter((answer) => answer.source === "api").length,
    pages: answers.length,
    partial: first.meta.pageCount > SETUP_MAX_PAGES || answers.some((answer) => answer.meta.pageCount > first.meta.pageCount),
    rateLimit: newest.rateLimit,
    ageSeconds: Math.max(...answers.map((answer) => answer.ageSeconds)),
    stale: answers.some((answer) => answer.stale),
    summaries: answers.map((answer) => answer.summary),
  };
}

/**
 * The setup as this person's own credential sees it (nobody else's). Never throws for the API's
 * sake: every failure is a state the page shows. `refresh` asks the API for every page again.
 */
export function loadSetup(actor: Actor, options: { refresh?: boolean } = {}): Promise<SetupOutcome> {
  // One read per person at a time in this process: while a plan is applied each write drops the
  // account's shared answers and their flights, and every view in between (Health, Coverage, a
  // draft, a webhook's page) walked all 35 pages of a 5,000-group account again, side by side.
  const key = `${actor.teamId}\n${actor.userId}\n${options.refresh === true}`;
  const inflight = setupFlights.get(key);
  if (inflight) return inflight;
  const flight = readOwnSetup(actor, options).finally(() => setupFlights.delete(key));
  setupFlights.set(key, flight);
  return flight;
}

const setupFlights = new Map<string, Promise<SetupOutcome>>();

async function readOwnSetup(actor: Actor, options: { refresh?: boolean }): Promise<SetupOutcome> {
  const windowMs = emsConfig().coverageCacheMs;
  const outcome = await loadShared(actor, null, "webhook-groups", undefined, { refresh: options.refresh, kind: "coverage", windowMs }, (client, shared) =>
    readSetup(client, shared),
  );
  if (outcome.kind !== "ok") return outcome;
  return { kind: "ok", snapshot: outcome.answer.snapshot, budget: outcome.budget, freshness: outcome.freshness };
}

export interface SetupRead {
  snapshot: SetupSnapshot;
  rateLimit: RateLimit | null;
  ageSeconds: number;
  stale: boolean;
}

/**
 * Both listings walked with one client: what loadSetup shows and what a history sync stores. With
 * `beforePage`, pages go one at a time, groups first.
 */
export async function readSetup(client: EmsClient, shared: SharedListOptions, beforePage?: BeforePage): Promise<SetupRead> {
  const peeked = await peekPages(client, shared);
  // With `beforePage` one page at a time, else PAGE_CONCURRENCY pages of both listings together.
  const slots = pageSlots(beforePage ? 1 : PAGE_CONCURRENCY);
  const [groups, events] = beforePage
    ? [
        await walk(client, "webhook-groups", SETUP_GROUPS_QUERY, shared, beforePage, peeked, slots),
        await walk(client, "events", SETUP_EVENTS_QUERY, shared, beforePage, peeked, slots),
      ]
    : await Promise.all([
        walk(client, "webhook-groups", SETUP_GROUPS_QUERY, shared, undefined, peeked, slots),
        walk(client, "events", SETUP_EVENTS_QUERY, shared, undefined, peeked, slots),
      ]);
  return {
    snapshot: {
      data: { groups: groups.items, events: events.items },
      fingerprint: client.fingerprint,
      calls: groups.calls + events.calls,
      refreshCalls: groups.pages + events.pages,
      partial: groups.partial || events.partial,
      version: setupVersion(groups.summaries, events.summaries),
    },
    rateLimit: groups.rateLimit ?? events.rateLimit,
    ageSeconds: Math.max(groups.ageSeconds, events.ageSeconds),
    stale: groups.stale || events.stale,
  };
}
