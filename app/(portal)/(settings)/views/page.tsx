import type { Metadata } from "next";
import Link from "next/link";
import { Star, User, Users } from "lucide-react";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { buttonClasses } from "@/components/ui/button";
import { ViewActionForm } from "@/components/views/view-action-form";
import { copyViewAction } from "@/lib/actions/views/copy-view";
import { deleteViewAction } from "@/lib/actions/views/delete-view";
import { favouriteViewAction } from "@/lib/actions/views/favourite-view";
import { setDefaultViewAction } from "@/lib/actions/views/set-default-view";
import { updateViewAction } from "@/lib/actions/views/update-view";
import { exactUtc, relativeTo } from "@/lib/auth/session-times";
import { requireActor } from "@/lib/auth/session";
import { describeViewQuery } from "@/lib/views/describe";
import { directoryPageNumber, listViewDirectory, type ViewDirectoryPage } from "@/lib/views/directory";
import { viewHref, type ViewSummary } from "@/lib/views/views";
import { LISTING_TITLES } from "@/lib/listing/titles";
import { LISTING_PAGES } from "@/lib/views/validation";

export const metadata: Metadata = { title: "Saved views" };

const button = buttonClasses("secondary", { size: "xs" });
const deleteButton = buttonClasses("ghost-danger", { size: "xs" });

function ownerOf(view: ViewSummary): string {
  if (view.isMine) return "you";
  return view.ownerName ?? "a former member";
}

function ViewRow({ view, now }: { view: ViewSummary; now: Date }) {
  const ScopeIcon = view.scope === "TEAM" ? Users : User;
  return (
    <li className="min-w-0 space-y-2 rounded-md border border-slate-200 bg-white p-3" data-testid="view-row" data-view-name={view.name}>
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        {view.isFavourite ? (
          <span className="inline-flex items-center" data-testid="favourite-mark">
            <Star className="size-4 fill-amber-400 text-amber-500" aria-hidden />
            <span className="sr-only">Favourite:</span>
          </span>
        ) : null}
        <Link href={viewHref(view)} prefetch={false} className="min-w-0 font-medium text-brand-700 underline wrap-anywhere" data-testid="open-view">
          {view.name}
        </Link>
        <span
          className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs ${view.scope === "TEAM" ? "bg-brand-50 text-brand-700" : "bg-slate-100 text-slate-700"}`}
        >
          <ScopeIcon className="size-3" aria-hidden />
          {view.scope === "TEAM" ? "Team" : "Personal"}
        </span>
        {view.isDefault ? <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs text-green-900">Your default</span> : null}
      </div>
      <p className="text-sm text-slate-800 wrap-anywhere" data-testid="view-description">
        {describeViewQuery(view.page, view.query)}
      </p>
      <p className="text-xs text-slate-600">
        {LISTING_TITLES[view.page]} · by <span className="wrap-anywhere">{ownerOf(view)}</span> ·{" "}
        <time dateTime={view.updatedAt.toISOString()} title={exactUtc(view.updatedAt)}>
          updated {relativeTo(view.updatedAt, now)}
        </time>
      </p>
      <div className="flex flex-wrap items-center gap-1.5">
        <ViewActionForm action={favouriteViewAction} className="contents" label={`Favourite ${view.name}`}>
          <input type="hidden" name="viewId" value={view.id} />
          <input type="hidden" name="favourite" value={view.isFavourite ? "" : "on"} />
          <button type="submit" className={button} data-testid="toggle-favourite">
            <Star className={`size-3.5 ${view.isFavourite ? "fill-amber-400 text-amber-500" : "text-slate-500"}`} aria-hidden />
            {view.isFavourite ? "Unfavourite" : "Favourite"}
          </button>
        </ViewActionForm>
        <ViewActionForm action={setDefaultViewAction} className="contents" label={`Default for ${view.name}`}>
          <input type="hidden" name="page" value={view.page} />
          <input type="hidden" name="viewId" value={view.isDefault ? "" : view.id} />
          <button type="submit" className={button}>
            {view.isDefault ? "Stop using as default" : "Set as default"}
          </button>
        </ViewActionForm>
        <ViewActionForm action={copyViewAction} className="contents" label={`Copy ${view.name}`}>
          <input type="hidden" name="viewId" value={view.id} />
          <button type="submit" className={button} data-testid="copy-view">
            Copy to my views
          </button>
        </ViewActionForm>
        {view.canManage && (view.scope === "PERSONAL" || view.isMine) ? (
          <ViewActionForm action={updateViewAction} className="contents" label={`Sharing of ${view.name}`}>
            <input type="hidden" name="viewId" value={view.id} />
            <input type="hidden" name="scope" value={view.scope === "TEAM" ? "PERSONAL" : "TEAM"} />
            <button type="submit" className={button} data-testid="toggle-share">
              {view.scope === "TEAM" ? "Make personal" : "Share with my team"}
            </button>
          </ViewActionForm>
        ) : null}
        {view.canManage ? (
          <ViewActionForm action={deleteViewAction} className="contents" label={`Delete ${view.name}`}>
            <input type="hidden" name="viewId" value={view.id} />
            <ConfirmSubmit
              trigger="Delete"
              title={`Delete “${view.name}”?`}
              description={
                view.scope === "TEAM" ? "Your whole team loses this view. You can undo this for a few seconds after." : "You can undo this for a few seconds after."
              }
              confirmLabel="Delete view"
              triggerClassName={deleteButton}
              testId="delete-view"
            />
            {/* Without JavaScript the dialog cannot open: a plain submit, as before the confirmation. */}
            <noscript>
              <button type="submit" className={deleteButton} data-testid="delete-view-now">
                Delete now
              </button>
            </noscript>
          </ViewActionForm>
        ) : null}
      </div>
      {view.canManage ? (
        <ViewActionForm action={updateViewAction} className="flex max-w-md flex-wrap items-center gap-1.5" label={`Rename ${view.name}`}>
          <input type="hidden" name="viewId" value={view.id} />
          <label htmlFor={`rename-${view.id}`} className="sr-only">
            New name
          </label>
          <input
            id={`rename-${view.id}`}
            name="name"
            required
            maxLength={80}
            defaultValue={view.name}
            className="min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
          />
          <button type="submit" className={button} data-testid="rename-view">
            Rename
          </button>
        </ViewActionForm>
      ) : null}
    </li>
  );
}

/** "Previous" / "Next" of /views: links (each page of the list is an address of its own). */
function DirectoryPaging({ directory }: { directory: ViewDirectoryPage }) {
  if (directory.total === 0) return null;
  const link = (pageNumber: number) => (pageNumber === 1 ? "/views" : `/views?page=${pageNumber}`);
  const previous = directory.pageNumber > 1 ? link(directory.pageNumber - 1) : null;
  const next = directory.pageNumber < directory.pageCount ? link(directory.pageNumber + 1) : null;
  return (
    <nav aria-label="Pages of saved views" className="flex flex-wrap items-center gap-2 text-sm" data-testid="views-paging">
      <p className="mr-auto text-slate-700" data-testid="views-range">
        {directory.from.toLocaleString("en-US")}–{directory.to.toLocaleString("en-US")} of {directory.total.toLocaleString("en-US")}
      </p>
      {previous ? (
        <Link href={previous} prefetch={false} className={button} rel="prev" data-testid="views-previous">
          Previous
        </Link>
      ) : (
        <span className={`${button} opacity-50`} aria-disabled="true">
          Previous
        </span>
      )}
      {next ? (
        <Link href={next} prefetch={false} className={button} rel="next" data-testid="views-next">
          Next
        </Link>
      ) : (
        <span className={`${button} opacity-50`} aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}

export default async function ViewsPage(props: PageProps<"/views">) {
  const actor = await requireActor();
  const directory = await listViewDirectory(actor, directoryPageNumber((await props.searchParams).page));
  const now = new Date();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Saved views</h1>
        <p className="mt-1 text-sm text-slate-700">
          A view is a name for a list&apos;s options, shown as a tab above that list. Team views are seen by everyone in{" "}
          <span className="wrap-anywhere">{actor.teamName}</span>; owners and admins (and whoever shared one) manage them, and everyone can copy them. Your favourites
          come first. Times are in UTC.
        </p>
      </div>
      <DirectoryPaging directory={directory} />
      {LISTING_PAGES.map((page) => {
        const shown = directory.views.filter((view) => view.page === page);
        // A section with views on other pages of the list is left out here; one with none says how to make one (on the first page).
        if (shown.length === 0 && (directory.totalByPage[page] > 0 || directory.pageNumber > 1)) return null;
        return (
          <section key={page} aria-labelledby={`views-${page}`} className="space-y-3">
            <h2 id={`views-${page}`} className="text-lg font-semibold text-slate-900">
              {LISTING_TITLES[page]} <span className="text-sm font-normal text-slate-600">({directory.totalByPage[page].toLocaleString("en-US")})</span>
            </h2>
            {shown.length === 0 ? (
              <p className="text-sm text-slate-600">
                No saved views yet.{" "}
                <Link href={`/${page}`} prefetch={false} className="text-brand-700 underline">
                  Open {LISTING_TITLES[page].toLowerCase()}
                </Link>
                , choose filters, and use “Save view…”.
              </p>
            ) : (
              <ul className="space-y-2">
                {shown.map((v) => (
                  <ViewRow key={v.id} view={v} now={now} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
      {directory.pageCount > 1 ? <DirectoryPaging directory={directory} /> : null}
    </div>
  );
}
