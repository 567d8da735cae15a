import { Suspense } from "react";
import type { Actor } from "@/lib/auth/session";
import type { ResolvedListing } from "@/lib/listing/resolve";
import { listingConfig } from "@/lib/listing/resources";
import { toSearchParams } from "@/lib/listing/search-params";
import { ListingControls } from "./listing-controls";
import { ListingResults } from "./listing-results";
import { Notices } from "./notices";
import { TableSkeleton } from "./table-skeleton";
import { ViewBar } from "./view-bar";

/**
 * The shell of a listing page: title, saved views, options and notices render at once; the
 * table streams in when the EMS API answers (the Suspense key makes every change of options show
 * the skeleton again, not the previous table).
 */
export function ListingPage({ actor, resolved }: { actor: Actor; resolved: ResolvedListing }) {
  const { state } = resolved;
  const config = listingConfig(state.resource);
  // New options, new form and new table (a stale table never shows under new options).
  const optionsKey = toSearchParams(state).toString();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">{config.title}</h1>
        <ViewBar
          state={state}
          views={resolved.views}
          activeView={resolved.activeView}
          modified={resolved.modified}
          canManageActiveView={resolved.canManageActiveView}
        />
      </div>
      <Notices notices={state.notices} />
      <ListingControls key={`controls?${optionsKey}`} state={state} />
      <Suspense key={`results?${optionsKey}`} fallback={<TableSkeleton rows={Math.min(state.perPage, 10)} />}>
        <ListingResults actor={actor} state={state} emsClient={resolved.emsClient} />
      </Suspense>
    </div>
  );
}
