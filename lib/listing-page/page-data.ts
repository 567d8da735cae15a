import "server-only";
import type { Actor } from "@/lib/access/actor";
import type { EmsClient } from "@/lib/ems";
import { exportEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { listingMarks } from "@/lib/history/marks";
import type { ListingMeta } from "@/lib/listing/load";
import { loadListingRows, type CheckFilterFacts } from "./check-filter";
import type { Freshness, ListingFailure, RateBudget } from "@/lib/ems-access/shared-read";
import { resolveListing, type ResolvedListing } from "./resolve";
import type { ListingResource } from "@/lib/listing/resources";
import type { ListingState, SearchParamsInput } from "@/lib/listing/search-params";
import type { WebhookRowContext } from "@/lib/listing/table-rows";
import { webhookRowContext } from "./webhook-context";

/** What the table part of a listing page shows: rows and what goes with them, or why there are none. */
export type ListingResultsData =
  | {
      kind: "ok";
      items: Record<string, unknown>[];
      meta: ListingMeta;
      budget: RateBudget | null;
      freshness: Freshness;
      /** Ids of the rows that changed since this person last looked (lib/history/marks.ts). */
      changed: ReadonlySet<number>;
      /** The export's row cap (EXPORT_MAX_ROWS), shown by its button. */
      exportMaxRows: number;
      /** The webhooks list: each webhook's group name and health findings. */
      webhookContext?: WebhookRowContext;
      /**
       * A health check has been computed for this person's credential (the navigation's counts): the
       * groups list then asks for its groups' findings. Not before: that first check reads the whole
       * setup, credits a person who only opened the groups list has not asked to spend.
       */
      healthKnown: boolean;
      /** Filtered by a Health check (`check=`): its count and whether a plan is changing it. */
      check: CheckFilterFacts | null;
    }
  | { kind: "failure"; failure: ListingFailure };

/** Everything a listing page shows: the resolved options and views now, the rows when they come. */
export interface ListingPageData extends Omit<ResolvedListing, "emsClient" | "lookedUp"> {
  /**
   * Started here, not awaited: the page waits a moment for it and otherwise streams the table in
   * behind a skeleton (components/listing/listing-page.tsx). Never rejects for the EMS API's sake.
   */
  results: Promise<ListingResultsData>;
}

/**
 * A listing page's data function: the options with saved views applied (resolveListing, which starts
 * the credential load beside its saved-views query), then the rows with that credential. The credential
 * stays in here: components get plain data.
 */
export async function loadListingPage(actor: Actor, resource: ListingResource, searchParams: SearchParamsInput): Promise<ListingPageData> {
  const { emsClient, lookedUp, ...resolved } = await resolveListing(actor, resource, searchParams);
  return { ...resolved, results: loadListingResults(actor, resolved.state, emsClient, lookedUp) };
}

async function loadListingResults(
  actor: Actor,
  state: ListingState,
  emsClient: Promise<EmsClient | null>,
  lookedUp: ResolvedListing["lookedUp"],
): Promise<ListingResultsData> {
  // The webhooks list reads the account's setup (health findings, group names) beside its rows.
  const context = state.resource === "webhooks" ? webhookRowContext(actor) : null;
  const { outcome, check } = await loadListingRows(actor, state, emsClient, { lookedUp });
  if (outcome.kind !== "ok") return { kind: "failure", failure: outcome };
  // Marks are a nicety: a database error costs the marks, not the rows.
  const changed = await listingMarks(
    actor,
    state.resource,
    outcome.items.map((item) => Number(item.id)),
  ).catch((error: unknown) => {
    log.error({ event: "listing.marks_failed", resource: state.resource, err: error }, "changed-since marks could not be worked out");
    return new Set<number>();
  });
  return {
    ...outcome,
    changed,
    exportMaxRows: exportEnv().EXPORT_MAX_ROWS,
    healthKnown: actor.healthCounts != null,
    check,
    ...(context ? { webhookContext: await context } : {}),
  };
}
