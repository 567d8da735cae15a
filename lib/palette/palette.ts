import { chargeReadCredits } from "@/lib/admission";
import { LISTING_COST } from "@/lib/ems";
import "server-only";
import type { Actor } from "@/lib/access/actor";
import { FAILURE_STATUS } from "@/lib/ems-access/shared-read";
import { loadListing } from "@/lib/listing/load";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { textSearchFilters } from "@/lib/listing/text-search";
import { canManageTeam } from "@/lib/access/roles";
import { listTrackers } from "@/lib/history/trackers";
import { inShowingOrder, listViews, viewHref } from "@/lib/views/views";

/**
 * What the command palette (components/shell/palette-dialog.tsx) asks the server for, loaded when
 * it opens or as the person types: their visible saved views, the syncs they may start, and
 * webhooks and events by name, URL or id. Each acts for the signed-in actor only: the views of
 * their team they may see, the team's trackers for an owner or admin, the records their own
 * credential reads. Nothing here returns a token, a secret or another team's data.
 */

export interface PaletteView {
  id: string;
  name: string;
  page: string;
  scope: "PERSONAL" | "TEAM";
  isFavourite: boolean;
  href: string;
}

export async function paletteViews(actor: Actor): Promise<PaletteView[]> {
  const views = inShowingOrder(await listViews(actor));
  return views.map((view) => ({ id: view.id, name: view.name, page: view.page, scope: view.scope, isFavourite: view.isFavourite, href: viewHref(view) }));
}

/** A change-history tracker "Sync now" may run from the palette. */
export interface PaletteSyncTarget {
  trackerId: string;
  accountLabel: string;
}

/**
 * The team's active trackers, for an owner or admin (the ones Settings offers "Sync now" for);
 * nothing for a member. The action itself (lib/actions/history/sync-now.ts) checks the role in the
 * database again.
 */
export async function paletteSyncTargets(actor: Actor): Promise<PaletteSyncTarget[]> {
  if (!canManageTeam(actor.role)) return [];
  const trackers = await listTrackers(actor);
  return trackers.filter((tracker) => tracker.status === "active").map((tracker) => ({ trackerId: tracker.id, accountLabel: tracker.accountLabel }));
}

/** The most records of each kind one search lists. */
export const RECORD_SEARCH_LIMIT = 8;

export interface PaletteWebhook {
  id: number;
  name: string;
  url: string;
  /** The URL's host, or "" when the URL does not parse. */
  host: string;
  enabled: boolean;
}

export interface PaletteEvent {
  id: number;
  name: string;
  status: string;
  startDate: string;
}

export type RecordSearchOutcome =
  { kind: "ok"; webhooks: PaletteWebhook[]; webhookTotal: number; events: PaletteEvent[]; eventTotal: number } | { kind: "failed"; status: number; message: string };

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch (error) {
    if (error instanceof TypeError) return "";
    throw error;
  }
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const positiveId = (value: unknown) => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

/**
 * Webhooks whose name or URL (so also its host) contains `query`, and events whose name contains
 * it, or the record with that id when `query` is a number (lib/listing/text-search.ts, as a list's
 * search box finds them): the first few of each, by name, read
 * with the actor's own credential through the listings' loader (shared answers, budget, error
 * handling included), two EMS calls side by side. `query` is already checked
 * (lib/palette/validation.ts). A failure of either read is the answer: both use one credential.
 */
export async function searchRecords(actor: Actor, query: string): Promise<RecordSearchOutcome> {
  const webhookState = {
    ...parseListingSearchParams("webhooks", {}),
    fields: ["id", "name", "url", "enabled"],
    filters: textSearchFilters("webhooks", query),
    searchCondition: "or" as const,
    perPage: RECORD_SEARCH_LIMIT,
    sort: [{ field: "name", direction: "asc" as const }],
  };
  const eventState = {
    ...parseListingSearchParams("events", {}),
    fields: ["id", "name", "status", "start_date"],
    filters: textSearchFilters("events", query),
    searchCondition: "or" as const,
    perPage: RECORD_SEARCH_LIMIT,
    sort: [{ field: "name", direction: "asc" as const }],
  };
  // Two listing calls: 20 credits of the person's allowance for costly reads (BusyError past it: the route answers 429).
  chargeReadCredits(actor.userId, 2 * LISTING_COST);
  const [webhooks, events] = await Promise.all([loadListing(actor, webhookState), loadListing(actor, eventState)]);
  for (const outcome of [webhooks, events]) {
    if (outcome.kind === "no-credentials") {
      return { kind: "failed", status: FAILURE_STATUS[outcome.kind], message: "Connect an EMS account in Settings to search webhooks and events." };
    }
    if (outcome.kind !== "ok") return { kind: "failed", status: FAILURE_STATUS[outcome.kind], message: outcome.message };
  }
  if (webhooks.kind !== "ok" || events.kind !== "ok") throw new Error("unreachable: both reads were checked");
  return {
    kind: "ok",
    webhooks: webhooks.items.flatMap((item) => {
      const id = positiveId(item.id);
      const url = text(item.url);
      return id ? [{ id, name: text(item.name), url, host: hostOf(url), enabled: item.enabled === true || item.enabled === 1 }] : [];
    }),
    webhookTotal: webhooks.meta.totalCount,
    events: events.items.flatMap((item) => {
      const id = positiveId(item.id);
      return id ? [{ id, name: text(item.name), status: text(item.status), startDate: text(item.start_date) }] : [];
    }),
    eventTotal: events.meta.totalCount,
  };
}
