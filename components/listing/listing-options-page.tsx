import Link from "next/link";
import { hrefOf } from "@/lib/listing/href";
import { listingConfig } from "@/lib/listing/resources";
import type { ListingState } from "@/lib/listing/search-params";
import { ListingControls } from "./listing-controls";

/**
 * A listing's options without JavaScript, on a page of their own (`/<list>/options?<its options>`):
 * the list links here from a `<noscript>`, so the form is not in every list's HTML and RSC payload
 * (issue 38), and the form's GET comes back to the list with the new options.
 */
export function ListingOptionsPage({ state }: { state: ListingState }) {
  const config = listingConfig(state.resource);
  return (
    <div className="max-w-3xl min-w-0 space-y-3">
      <h1 className="text-2xl font-semibold text-slate-900">{config.title}: options</h1>
      <p className="text-sm text-slate-700">
        <Link href={hrefOf(state)} prefetch={false} className="text-brand-700 underline">
          Back to the list
        </Link>{" "}
        as it was.
      </p>
      <ListingControls state={state} />
    </div>
  );
}
