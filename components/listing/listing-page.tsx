import { Suspense } from "react";
import type { ListingPageData, ListingResultsData } from "@/lib/listing-page/page-data";
import { listingConfig } from "@/lib/listing/resources";
import { optionsHrefOf } from "@/lib/listing/href";
import { Notice } from "@/components/ui/notice";
import { ListingResults, ResultsTools } from "./listing-results";
import { Notices } from "./notices";
import { TableSkeleton } from "./table-skeleton";
import { ListingBusy, ListingNavigationProvider } from "./toolbar/listing-navigation";
import { ListingToolbar } from "./toolbar/listing-toolbar";
import { ViewBar } from "./view-bar";
import { CheckChip } from "./check-chip";

/** How long a listing waits for its rows before it streams them behind a skeleton. */
const FIRST_FLUSH_WAIT_MS = 150;

/** Resolves with null after `ms`; the timer does not keep the process up. */
const delay = (ms: number) => new Promise<null>((resolve) => setTimeout(resolve, ms, null).unref());

/**
 * A listing page: title, saved views, the toolbar and notices, and the table when its rows come
 * within FIRST_FLUSH_WAIT_MS (a shared answer does); else the table streams in behind a skeleton
 * when the EMS API answers. The route has no loading.tsx on purpose: its skeleton would be revealed
 * late for the same reason, and a nav link marks its own pending load. A change of options is a
 * client navigation in one transition (ListingNavigationProvider): the rows on screen stay, dimmed,
 * until the new ones come.
 */
export async function ListingPage({ data }: { data: ListingPageData }) {
  const { state } = data;
  const config = listingConfig(state.resource);
  // The rows were started by the page's data function. A shared answer is read in a few milliseconds:
  // given a moment, it goes out with the rest of the page in the first flush. A boundary that streams
  // in later is revealed only ~300 ms after the first paint (React batches reveals), which would be
  // most of a cold load.
  const ready = await Promise.race([data.results, delay(FIRST_FLUSH_WAIT_MS)]);
  return (
    <ListingNavigationProvider>
      <div className="min-w-0 space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold text-slate-900">{config.title}</h1>
          <ViewBar state={state} views={data.views} moreViews={data.moreViews} activeView={data.activeView} modified={data.modified} />
        </div>
        <Notices notices={state.notices} />
        <ListingToolbar
          state={state}
          check={
            state.check ? (
              ready ? (
                <CheckChip state={state} total={ready.kind === "ok" ? ready.check?.total : undefined} />
              ) : (
                <Suspense fallback={<CheckChip state={state} />}>
                  <StreamedCheckChip state={state} results={data.results} />
                </Suspense>
              )
            ) : null
          }
          tools={
            ready ? (
              <ResultsTools state={state} results={ready} />
            ) : (
              <Suspense fallback={null}>
                <StreamedTools state={state} results={data.results} />
              </Suspense>
            )
          }
        />
        {/* Without JavaScript the options are a GET form on a page of their own: the form here was
            ~6 kB of every list's HTML and RSC payload for the few who browse without scripts. */}
        <noscript>
          <a href={optionsHrefOf(state)} className="text-sm text-brand-700 underline" data-testid="listing-options-link">
            Filters, columns and rows per page
          </a>
        </noscript>
        {state.idsErrors.length > 0 ? (
          <Notice tone="error" title="The ids in this address were not applied" testId="ids-url-errors">
            <ul className="list-disc pl-5">
              {state.idsErrors.map((error, i) => (
                <li key={i}>{error}</li>
              ))}
            </ul>
          </Notice>
        ) : null}
        <ListingBusy>
          {ready ? (
            <ListingResults state={state} results={ready} />
          ) : (
            <Suspense fallback={<TableSkeleton rows={Math.min(state.perPage, 10)} />}>
              <StreamedResults state={state} results={data.results} />
            </Suspense>
          )}
        </ListingBusy>
      </div>
    </ListingNavigationProvider>
  );
}

/** The table once its rows come, when they came too late for the first flush. */
async function StreamedResults({ state, results }: { state: ListingPageData["state"]; results: Promise<ListingResultsData> }) {
  return <ListingResults state={state} results={await results} />;
}

/** The toolbar's export and data status, when the rows came too late for the first flush. */
async function StreamedTools({ state, results }: { state: ListingPageData["state"]; results: Promise<ListingResultsData> }) {
  return <ResultsTools state={state} results={await results} />;
}

/** The check's chip with its count, when the rows came too late for the first flush. */
async function StreamedCheckChip({ state, results }: { state: ListingPageData["state"]; results: Promise<ListingResultsData> }) {
  const ready = await results;
  return <CheckChip state={state} total={ready.kind === "ok" ? ready.check?.total : undefined} />;
}
