import type { Metadata } from "next";
import Link from "next/link";
import { SaveViewForm } from "@/components/views/save-view-form";
import { requireActor } from "@/lib/auth/session";
import { describeViewQuery } from "@/lib/views/describe";
import { MAX_VIEW_QUERY_LENGTH, VIEW_QUERY_TOO_LONG } from "@/lib/views/limits";
import { parseNewViewParams } from "@/lib/views/validation";
import { canonicalViewQuery } from "@/lib/views/views";

export const metadata: Metadata = { title: "Save a view" };

/**
 * "Save view…" without JavaScript: the tab bar's popover trigger is a link here, with the page and
 * its options; the form then posts to saveViewAction, which opens the new view.
 */
export default async function NewViewPage(props: PageProps<"/views/new">) {
  await requireActor();
  const { page, query: rawQuery } = parseNewViewParams(await props.searchParams);
  if (!page) {
    return (
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">Save a view</h1>
        <p className="text-sm text-slate-700">
          Open{" "}
          <Link href="/webhook-groups" prefetch={false} className="text-brand-700 underline">
            webhook groups
          </Link>{" "}
          or{" "}
          <Link href="/events" prefetch={false} className="text-brand-700 underline">
            events
          </Link>
          , choose filters, and save them from there.
        </p>
      </div>
    );
  }
  // Read no further than a view may store: longer options are refused whole, never cut.
  const tooLong = rawQuery.length > MAX_VIEW_QUERY_LENGTH;
  const query = tooLong ? "" : canonicalViewQuery(page, rawQuery);
  if (tooLong || query.length > MAX_VIEW_QUERY_LENGTH) {
    return (
      <div className="max-w-md space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">Save a view</h1>
        <p className="text-sm text-red-700" data-testid="view-query-too-long">
          {VIEW_QUERY_TOO_LONG}
        </p>
      </div>
    );
  }
  return (
    <div className="max-w-md space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Save a view</h1>
      <p className="text-sm text-slate-700 wrap-anywhere">{describeViewQuery(page, query)}</p>
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <SaveViewForm page={page} query={query} idPrefix="new-view" />
      </div>
    </div>
  );
}
