import "server-only";
import type { Actor } from "@/lib/access/actor";
import { FAILURE_STATUS } from "@/lib/ems-access/shared-read";
import { loadListing } from "@/lib/listing/load";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { inShowingOrder, listViews, viewHref } from "@/lib/views/views";

/**
 * What the command palette (components/shell/command-palette.tsx) asks the server for, loaded when
 * it opens or as the person types: their visible saved views, and webhook groups by name. Both
 * act for the signed-in actor only: the views of their team they may see, the groups their own
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

/** The most groups one search lists. */
export const GROUP_SEARCH_LIMIT = 10;

export interface PaletteGroup {
  id: number;
  name: string;
}

export type GroupSearchOutcome = { kind: "ok"; groups: PaletteGroup[]; total: number } | { kind: "failed"; status: number; message: string };

/**
 * Webhook groups whose name contains `text`, the first ten by name, read with the actor's own
 * credential through the listings' loader (shared answers, budget and error handling included).
 * `text` is already checked (lib/palette/validation.ts).
 */
export async function searchWebhookGroups(actor: Actor, text: string): Promise<GroupSearchOutcome> {
  const state = {
    ...parseListingSearchParams("webhook-groups", {}),
    fields: ["id", "name"],
    filters: [{ field: "name", operator: "=*contains*", value: text }],
    perPage: GROUP_SEARCH_LIMIT,
    sort: [{ field: "name", direction: "asc" as const }],
  };
  const outcome = await loadListing(actor, state);
  if (outcome.kind === "no-credentials") {
    return { kind: "failed", status: FAILURE_STATUS[outcome.kind], message: "Connect an EMS account in Settings to search webhook groups." };
  }
  if (outcome.kind !== "ok") return { kind: "failed", status: FAILURE_STATUS[outcome.kind], message: outcome.message };
  const groups = outcome.items
    .map((item) => ({ id: Number(item.id), name: typeof item.name === "string" ? item.name : "" }))
    .filter((group) => Number.isSafeInteger(group.id) && group.id > 0)
    .slice(0, GROUP_SEARCH_LIMIT);
  return { kind: "ok", groups, total: outcome.meta.totalCount };
}
