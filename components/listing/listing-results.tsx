import Link from "next/link";
import type { Actor } from "@/lib/access/actor";
import type { EmsClient } from "@/lib/ems";
import { exportEnv } from "@/lib/env";
import { formatCount } from "@/lib/listing/format";
import { listingMarks } from "@/lib/history/marks";
import { loadListing } from "@/lib/listing/load";
import { log } from "@/lib/log";
import { listingConfig } from "@/lib/listing/resources";
import { hrefOf, toSearchParams } from "@/lib/listing/href";
import type { ListingState } from "@/lib/listing/search-params";
import { ExportButton } from "./export-button";
import { DataAge, LowBudgetNotice, StaleNotice } from "./freshness";
import { ListingTable } from "./listing-table";
import { Pagination } from "./pagination";
import { BudgetLine, StateMessage } from "./state-message";

/** The part of a listing page that waits for the EMS API: streamed in behind a skeleton. */
export async function ListingResults({ actor, state, emsClient }: { actor: Actor; state: ListingState; emsClient?: Promise<EmsClient | null> }) {
  const config = listingConfig(state.resource);
  const outcome = await loadListing(actor, state, emsClient);
  if (outcome.kind !== "ok") return <StateMessage failure={outcome} retryHref={hrefOf(state)} />;

  const { items, meta, budget, freshness } = outcome;
  // The "changed" marks add to the rows; failing to work them out costs the marks, not the page.
  const changed = await listingMarks(actor, state.resource, items.map((item) => Number(item.id))).catch((error: unknown) => {
    log.error({ event: "listing.marks_failed", resource: state.resource, err: error }, "changed-since marks could not be worked out");
    return new Set<number>();
  });
  const exportSearch = toSearchParams(state, { includePage: false, includeView: false }).toString();
  return (
    <section aria-label={`${config.title} list`} className="space-y-2" data-testid="listing-results">
      <LowBudgetNotice budget={budget} />
      <StaleNotice freshness={freshness} budget={budget} />
      <DataAge freshness={freshness} refresh={{ resource: state.resource, search: toSearchParams(state).toString() }} />
      {meta.currentPage !== state.page && meta.totalCount > 0 ? (
        <p role="note" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm" data-testid="page-notice">
          Page {formatCount(state.page)} does not exist; showing page {formatCount(meta.currentPage)}, the last one.
        </p>
      ) : null}
      {items.length === 0 ? (
        <div className="rounded-md border border-slate-200 bg-white p-6 text-center" data-testid="state-empty">
          <h2 className="text-base font-semibold text-slate-900">No {config.title.toLowerCase()} match these options</h2>
          <p className="mt-1 text-sm text-slate-700">
            Loosen the filters or the ids, or{" "}
            <Link href={`${config.path}?view=none`} prefetch={false} className="text-brand-700 underline">
              start again from the whole list
            </Link>
            .
          </p>
        </div>
      ) : (
        <>
          <ListingTable state={{ ...state, page: meta.currentPage }} rows={items} changed={changed} />
          <Pagination state={{ ...state, page: meta.currentPage }} meta={meta} />
        </>
      )}
      <div className="flex flex-wrap items-start justify-between gap-3 border-t border-slate-200 pt-3">
        {meta.totalCount > 0 ? <ExportButton resource={state.resource} search={exportSearch} maxRows={exportEnv().EXPORT_MAX_ROWS} /> : <span />}
        {budget ? <BudgetLine budget={budget} /> : null}
      </div>
    </section>
  );
}
