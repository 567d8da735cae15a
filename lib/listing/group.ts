import "server-only";
import type { Actor } from "@/lib/access/actor";
import { answerCache, canonicalQuery, emsConfig, WEBHOOK_GROUP_FIELDS, type EmsEvent, type RecordQueryFor, type WebhookGroup } from "@/lib/ems";
import { SETUP_EVENTS_QUERY } from "@/lib/setup/load";
import { loadListing, type ListingOutcome } from "./load";
import { loadRecord, loadShared, type RecordOutcome } from "@/lib/ems-access/shared-read";
import { parseListingSearchParams, type ListingState } from "./search-params";

/** What a group's page reads: the group itself, every field, with its webhooks (one credit). */
export const GROUP_PAGE_QUERY: RecordQueryFor<"webhook-groups"> = { fields: [...WEBHOOK_GROUP_FIELDS], expand: ["webhooks"] };

/** The group behind `/webhook-groups/{id}`, as this person's credential sees it (null: no such group). */
export function loadGroupPage(actor: Actor, id: number, options: { refresh?: boolean } = {}): Promise<RecordOutcome<WebhookGroup>> {
  return loadRecord(actor, "webhook-groups", id, GROUP_PAGE_QUERY, options);
}

/** A listing's `ids` takes at most 100 (docs/ems-api.md §4.3): the names of the first 100 events are asked for. */
export const EVENT_NAMES_MAX = 100;

/** The events listing behind the names of a group's webhooks' events: those ids, id, name and status. */
export function eventNamesState(ids: readonly number[]): ListingState {
  const wanted = [...new Set(ids)].sort((a, b) => a - b).slice(0, EVENT_NAMES_MAX);
  return { ...parseListingSearchParams("events", {}), fields: ["id", "name", "status"], ids: wanted, perPage: EVENT_NAMES_MAX };
}

/** The names found, and which ids were asked for (an id asked for and not found is not in the account). */
export interface EventNames {
  asked: ReadonlySet<number>;
  outcome: ListingOutcome<Pick<EmsEvent, "id" | "name" | "status">>;
}

/**
 * The account's events by id, name and status, the first 200 by id: the first page of the events
 * the Coverage and Health pages read (lib/setup/load.ts), so the very same shared answer serves every
 * group page of the team and those pages alike, kept as long as they keep it
 * (EMS_COVERAGE_CACHE_SECONDS: names are reference data, not what the page is about). Visiting twenty
 * groups costs one call, not twenty. For most accounts it holds every event.
 */
const EVENT_DIRECTORY_QUERY = { ...SETUP_EVENTS_QUERY, page: 1 };

async function loadEventDirectory(actor: Actor): Promise<ListingOutcome<NamedEvent>> {
  const { hash } = canonicalQuery("events", EVENT_DIRECTORY_QUERY);
  const shared = await loadShared(actor, hash, "events", undefined, { windowMs: emsConfig().coverageCacheMs }, (client, options) =>
    answerCache.list(client, "events", EVENT_DIRECTORY_QUERY, options),
  );
  if (shared.kind !== "ok") return shared;
  return { kind: "ok", items: shared.answer.items, meta: shared.answer.meta, budget: shared.budget, freshness: shared.freshness };
}

type NamedEvent = Pick<EmsEvent, "id" | "name" | "status">;

/**
 * The events the group's webhooks name, by id: from the shared directory, and only for an account
 * with more events than it holds, one `ids` listing for the rest (both shared like every listing).
 */
export async function loadEventNames(actor: Actor, ids: readonly number[]): Promise<EventNames> {
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  const directory = await loadEventDirectory(actor);
  if (directory.kind !== "ok") return { asked: new Set(wanted), outcome: directory };
  const wantedSet = new Set(wanted);
  const found = directory.items.filter((event) => wantedSet.has(event.id));
  // The directory runs in id order: an id within its range that it lacks is not in the account.
  const lastId = directory.items.at(-1)?.id ?? 0;
  const beyond = directory.meta.pageCount <= 1 ? [] : wanted.filter((id) => id > lastId);
  if (beyond.length === 0) return { asked: wantedSet, outcome: { ...directory, items: found } };
  const state = eventNamesState(beyond);
  const rest = (await loadListing(actor, state)) as ListingOutcome<NamedEvent>;
  const items = rest.kind === "ok" ? [...found, ...rest.items] : found;
  const asked = new Set([...wanted.filter((id) => id <= lastId), ...(rest.kind === "ok" ? state.ids : [])]);
  return { asked, outcome: { ...directory, items } };
}

/** The events a group's webhooks fire for, by id (a webhook that fires for any event names none). */
export function groupEventIds(group: WebhookGroup): number[] {
  return (group.webhooks ?? []).flatMap((webhook) => (webhook.any_event ? [] : (webhook.event_ids ?? [])));
}

/** What a group's page asks for its webhooks' event names: the shared directory, or nothing when none is named. */
export function loadGroupEventNames(actor: Actor, group: WebhookGroup): Promise<EventNames> | null {
  const ids = groupEventIds(group);
  return ids.length > 0 ? loadEventNames(actor, ids) : null;
}
