import { Suspense } from "react";
import type { Actor } from "@/lib/auth/session";
import type { ResolvedListing } from "@/lib/listing/resolve";
import { listingConfig } from "@/lib/listing/resources";
import { Notice } from "@/components/ui/notice";
import { ListingControls } from "./listing-controls";
import { ListingResults } from "./listing-results";
import { Notices } from "./notices";
import { TableSkeleton } from "./table-skeleton";
import { ListingBusy, ListingNavigationProvider } from "./toolbar/listing-navigation";
import { ListingToolbar } from "./toolbar/listing-toolbar";
import { ViewBar } from "./view-bar";

/**
 * The shell of a listing page: title, saved views, the toolbar and notices render at once; the
 * table streams in when the EMS API answers. A change of options is a client navigation in one
 * transition (ListingNavigationProvider): the rows on screen stay, dimmed, until the new ones come.
 */
export function ListingPage({ actor, resolved }: { actor: Actor; resolved: ResolvedListing }) {
  const { state } = resolved;
  const config = listingConfig(state.resource);
  return (
    <ListingNavigationProvider>
      <div className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold text-slate-900">{config.title}</h1>
          <ViewBar
            state={state}
            views={resolved.views}
            activeView={resolved.activeView}
            modified={resolved.modified}
          />
        </div>
        <Notices notices={state.notices} />
        <ListingToolbar state={state} />
        <noscript>
          <ListingControls state={state} />
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
          <Suspense fallback={<TableSkeleton rows={Math.min(state.perPage, 10)} />}>
            <ListingResults actor={actor} state={state} emsClient={resolved.emsClient} />
          </Suspense>
        </ListingBusy>
      </div>
    </ListingNavigationProvider>
  );
}
