import { listingConfig } from "@/lib/listing/resources";
import { viewQueryOf } from "@/lib/listing/href";
import type { ListingState } from "@/lib/listing/search-params";
import { describeViewQuery } from "@/lib/views/describe";
import { inShowingOrder, viewHref, type ViewSummary } from "@/lib/views/views";
import { ViewTabs, type ViewTab } from "@/components/views/view-tabs";

/**
 * The saved views of a listing page as tabs above its table (components/views/view-tabs.tsx), each
 * described in words here on the server: favourites first, then personal views, then the team's. Only
 * the tabs (favourites and most used) are described here; "More" loads the rest when it opens.
 */
export function ViewBar({
  state,
  views,
  moreViews,
  activeView,
  modified,
}: {
  state: ListingState;
  /** The tabs (lib/views/tabs.ts), not every view: the rest are counted in `moreViews`. */
  views: ViewSummary[];
  moreViews: number;
  activeView: ViewSummary | null;
  modified: boolean;
}) {
  const config = listingConfig(state.resource);
  const query = viewQueryOf(state);
  const tabs: ViewTab[] = inShowingOrder(views).map((view) => ({
    id: view.id,
    name: view.name,
    href: viewHref(view),
    description: describeViewQuery(view.page, view.query),
    scope: view.scope,
    canManage: view.canManage,
    isDefault: view.isDefault,
    isFavourite: view.isFavourite,
  }));
  const saveAsNew = new URLSearchParams({ page: state.resource });
  if (query) saveAsNew.set("query", query);
  return (
    <ViewTabs
      page={state.resource}
      allHref={`${config.path}?view=none`}
      allDescription={`All ${config.title.toLowerCase()}, no saved view`}
      tabs={tabs}
      moreViews={moreViews}
      activeId={activeView?.id ?? null}
      modified={activeView !== null && modified}
      query={query}
      currentHref={`${config.path}?${query || "view=none"}`}
      saveAsNewHref={`/views/new?${saveAsNew.toString()}`}
    />
  );
}
