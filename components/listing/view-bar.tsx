import Link from "next/link";
import { saveViewAction } from "@/lib/actions/views/save-view";
import { updateViewAction } from "@/lib/actions/views/update-view";
import { listingConfig } from "@/lib/listing/resources";
import { viewQueryOf, type ListingState } from "@/lib/listing/search-params";
import { viewHref, type ViewSummary } from "@/lib/views/views";
import { ActionForm } from "@/components/forms/action-form";

/** The saved-view picker of a listing page, "save these options as a view", and "update the view". */
export function ViewBar({
  state,
  views,
  activeView,
  modified,
  canManageActiveView,
}: {
  state: ListingState;
  views: ViewSummary[];
  activeView: ViewSummary | null;
  modified: boolean;
  canManageActiveView: boolean;
}) {
  const config = listingConfig(state.resource);
  const query = viewQueryOf(state);
  const personal = views.filter((v) => v.scope === "PERSONAL");
  const team = views.filter((v) => v.scope === "TEAM");
  const item = (view: ViewSummary) => (
    <li key={view.id}>
      <Link
        href={viewHref(view)}
        aria-current={activeView?.id === view.id ? "page" : undefined}
        className="block rounded px-2 py-1 text-sm hover:bg-slate-100 aria-[current=page]:font-semibold"
        data-testid="view-option"
      >
        {view.name}
        {view.isDefault ? <span className="ml-1 text-xs text-slate-600">(default)</span> : null}
      </Link>
    </li>
  );

  return (
    <div className="flex flex-wrap items-start gap-3" data-testid="view-bar">
      <details className="relative">
        <summary className="cursor-pointer rounded border border-slate-300 bg-white px-3 py-1.5 text-sm" data-testid="view-picker">
          View: <strong>{activeView ? activeView.name : "All (no saved view)"}</strong>
          {activeView && modified ? <span className="ml-1 text-xs text-amber-800">(changed)</span> : null}
        </summary>
        <div className="absolute z-10 mt-1 w-72 space-y-2 rounded-md border border-slate-200 bg-white p-2 shadow-lg">
          <ul>
            <li>
              <Link href={`${config.path}?view=none`} prefetch={false} className="block rounded px-2 py-1 text-sm hover:bg-slate-100">
                All {config.title.toLowerCase()} (no saved view)
              </Link>
            </li>
          </ul>
          {personal.length > 0 ? (
            <div>
              <p className="px-2 text-xs font-semibold uppercase text-slate-600">My views</p>
              <ul>{personal.map(item)}</ul>
            </div>
          ) : null}
          {team.length > 0 ? (
            <div>
              <p className="px-2 text-xs font-semibold uppercase text-slate-600">Team views</p>
              <ul>{team.map(item)}</ul>
            </div>
          ) : null}
          <Link href="/views" className="block px-2 text-sm text-brand-700 underline">
            Manage views
          </Link>
        </div>
      </details>

      {activeView && modified && canManageActiveView ? (
        <ActionForm action={updateViewAction} className="flex items-center gap-2" label="Update the saved view">
          <input type="hidden" name="viewId" value={activeView.id} />
          <input type="hidden" name="query" value={query} />
          <button type="submit" className="rounded border border-slate-300 px-2 py-1.5 text-sm hover:bg-slate-100">
            Update “{activeView.name}” with these options
          </button>
        </ActionForm>
      ) : null}

      <details>
        <summary className="cursor-pointer rounded border border-slate-300 bg-white px-3 py-1.5 text-sm" data-testid="save-view-toggle">
          Save as view…
        </summary>
        <ActionForm action={saveViewAction} className="mt-2 flex flex-wrap items-end gap-3 rounded-md border border-slate-200 bg-white p-3" label="Save these options as a view" testId="save-view-form">
          <input type="hidden" name="page" value={state.resource} />
          <input type="hidden" name="query" value={query} />
          <div className="flex flex-col">
            <label htmlFor={`${state.resource}-view-name`} className="text-xs text-slate-700">
              Name
            </label>
            <input id={`${state.resource}-view-name`} name="name" required maxLength={80} className="rounded border border-slate-300 px-2 py-1 text-sm" />
          </div>
          <fieldset className="flex items-center gap-3 text-sm">
            <legend className="text-xs text-slate-700">Who sees it</legend>
            <label className="flex items-center gap-1">
              <input type="radio" name="scope" value="PERSONAL" defaultChecked /> Only me
            </label>
            <label className="flex items-center gap-1">
              <input type="radio" name="scope" value="TEAM" /> My team
            </label>
          </fieldset>
          <label className="flex items-center gap-1 text-sm">
            <input type="checkbox" name="makeDefault" /> Open by default
          </label>
          <button type="submit" className="rounded bg-brand-600 px-3 py-1 text-sm font-medium text-white hover:bg-brand-600">
            Save view
          </button>
        </ActionForm>
      </details>
    </div>
  );
}
