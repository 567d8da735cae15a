import Link from "next/link";
import { formatCount } from "@/lib/listing/format";
import type { ListingResultsData } from "@/lib/listing-page/page-data";
import { listingConfig } from "@/lib/listing/resources";
import { changeTheseHref, hrefOf, hrefWith, toSearchParams } from "@/lib/listing/href";
import { CHECKS } from "@/lib/setup/checks";
import type { CheckFilterFacts } from "@/lib/listing-page/check-filter";
import { Time } from "@/components/ui/time";
import type { ListingState } from "@/lib/listing/search-params";
import { ExportButton } from "./export-button";
import { DataAge, LowBudgetNotice, StaleNotice } from "./freshness";
import { ListingTable } from "./listing-table";
import { Pagination } from "./pagination";
import { StateMessage } from "./state-message";
import { toolbarButton } from "./toolbar/styles";

/**
 * The part of a listing page that waits for the EMS API (sent in the first flush or streamed in behind
 * a skeleton: listing-page.tsx); the page's data function (lib/listing/page-data.ts) loaded it.
 */
export function ListingResults({ state, results }: { state: ListingState; results: ListingResultsData }) {
  const config = listingConfig(state.resource);
  if (results.kind !== "ok") return <StateMessage failure={results.failure} retryHref={hrefOf(state)} />;

  const { items, meta, budget, freshness, changed } = results;
  return (
    <section aria-label={`${config.title} list`} className="space-y-2" data-testid="listing-results">
      <LowBudgetNotice budget={budget} />
      <StaleNotice freshness={freshness} budget={budget} />
      {meta.currentPage !== state.page && meta.totalCount > 0 ? (
        <p role="note" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm" data-testid="page-notice">
          Page {formatCount(state.page)} does not exist; showing page {formatCount(meta.currentPage)}, the last one.
        </p>
      ) : null}
      {state.check && results.check ? <CheckListNote state={state} facts={results.check} /> : null}
      {state.check && results.check?.total === 0 ? (
        <div className="rounded-md border border-emerald-200 bg-emerald-50 p-6 text-center" data-testid="check-empty">
          <h2 className="text-base font-semibold text-emerald-900">
            {state.ids.length > 0 ? "None of the chosen ids is found by this check" : CHECKS[state.check].noneFound}
          </h2>
          <p className="mt-1 text-sm text-emerald-800">
            Health&apos;s check “{CHECKS[state.check].title}” finds {state.ids.length > 0 ? "none of them" : "nothing in this account"}.{" "}
            <Link href={hrefWith(state, { check: null })} prefetch={false} className="text-brand-700 underline">
              Show the whole list
            </Link>
            .
          </p>
        </div>
      ) : items.length === 0 ? (
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
          <ListingTable state={{ ...state, page: meta.currentPage }} rows={items} changed={changed} context={results.webhookContext} askFindings={results.healthKnown} />
          <Pagination state={{ ...state, page: meta.currentPage }} meta={meta} />
        </>
      )}
    </section>
  );
}

/**
 * The toolbar's end, once the rows came: export (of every matching row) and the data's age with the
 * API budget, one small indicator.
 */
export function ResultsTools({ state, results }: { state: ListingState; results: ListingResultsData }) {
  if (results.kind !== "ok") return null;
  const exportSearch = toSearchParams(state, { includePage: false, includeView: false }).toString();
  return (
    <>
      {/* A check's records are paged by the portal, which the export does not do (its route refuses them). */}
      {results.meta.totalCount > 0 && !state.check ? <ExportButton resource={state.resource} search={exportSearch} maxRows={results.exportMaxRows} /> : null}
      {results.meta.totalCount > 0 && state.resource !== "events" ? (
        // Every row these options select, changed through a reviewed plan (app/(portal)/plans/new).
        <Link
          href={changeTheseHref(state)}
          prefetch={false}
          className={toolbarButton()}
          data-testid="change-these"
          title={`Change the ${formatCount(results.meta.totalCount)} ${state.resource === "webhooks" ? "webhooks" : "webhook groups"} these options select, as a plan you review first`}
        >
          Change these…
        </Link>
      ) : null}
      {state.resource !== "events" ? (
        // A full page load: a client navigation to /webhooks/new would be taken by the webhook panel's route.
        <a
          href={state.resource === "webhooks" ? "/webhooks/new" : "/webhook-groups/new"}
          className={toolbarButton()}
          data-testid="new-record"
          title="Drafted as a plan you review before it is created"
        >
          {state.resource === "webhooks" ? "New webhook" : "New group"}
        </a>
      ) : null}
      <DataAge
        freshness={results.freshness}
        budget={results.budget}
        refresh={state.check ? null : { resource: state.resource, search: toSearchParams(state).toString() }}
      />
    </>
  );
}

/**
 * A list filtered by a Health check says how it is put together (lib/listing/id-set-pages.ts): the
 * check's records in pages by id, the sort and the other filters within each page.
 */
function CheckListNote({ state, facts }: { state: ListingState; facts: CheckFilterFacts }) {
  if (facts.total === 0) return null;
  const narrowed = state.filters.length > 0 || state.ids.length > 0;
  return (
    <p className="text-sm text-slate-600" data-testid="check-note">
      The records Health&apos;s check finds, in pages by id
      {state.sort.length > 0 ? "; the sort orders the rows of each page" : ""}
      {narrowed ? "; the other filters narrow each page, so a page may hold fewer rows and the count is the check's" : ""}.
      {facts.updating ? (
        <>
          {" "}
          A plan is being applied: as Health found them at <Time value={facts.updating.asOf} />.
        </>
      ) : null}
    </p>
  );
}
