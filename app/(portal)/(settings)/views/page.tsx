import type { Metadata } from "next";
import Link from "next/link";
import { Star, User, Users } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { exactUtc, relativeTo } from "@/lib/auth/session-times";
import { requireActor } from "@/lib/auth/session";
import { describeViewQuery } from "@/lib/views/describe";
import { directoryPageNumber, listViewDirectory, type DirectoryView, type ViewDirectoryPage } from "@/lib/views/directory";
import { viewHref } from "@/lib/views/views";
import { LISTING_TITLES } from "@/lib/listing/titles";
import { LISTING_PAGES } from "@/lib/views/validation";
import { SettingsTable, type SettingsColumn } from "@/components/settings/settings-table";

export const metadata: Metadata = { title: "Saved views · Settings" };

const button = buttonClasses("secondary", { size: "xs" });

function ownerOf(view: DirectoryView): string {
  if (view.isMine) return "You";
  return view.ownerName ?? "A former member";
}

/**
 * One view: its name (the link that opens it) and what it shows, in words; its list, scope, owner
 * and when this person last opened it. A table row from 640 px, two lines below. Managing a view
 * (rename, share, favourite, default, delete) is its tab's menu, on the list it belongs to.
 */
function ViewRow({ view, now }: { view: DirectoryView; now: Date }) {
  const ScopeIcon = view.scope === "TEAM" ? Users : User;
  return (
    <tr
      className="align-top max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:gap-x-2 max-sm:gap-y-0.5 max-sm:py-3"
      data-testid="view-row"
      data-view-name={view.name}
    >
      <td className="py-2.5 pr-4 max-sm:w-full max-sm:p-0">
        <div className="flex min-w-0 items-center gap-1.5">
          {view.isFavourite ? (
            <span className="inline-flex shrink-0 items-center" data-testid="favourite-mark">
              <Star className="size-4 fill-amber-400 text-amber-500" aria-hidden />
              <span className="sr-only">Favourite:</span>
            </span>
          ) : null}
          <Link href={viewHref(view)} prefetch={false} className="min-w-0 font-medium text-brand-700 underline wrap-anywhere" data-testid="open-view">
            {view.name}
          </Link>
          {view.isDefault ? <span className="shrink-0 rounded bg-green-100 px-1.5 py-0.5 text-xs text-green-900">Your default</span> : null}
        </div>
        <p className="mt-0.5 text-xs text-slate-600 wrap-anywhere" data-testid="view-description">
          {describeViewQuery(view.page, view.query)}
        </p>
      </td>
      <td className="py-2.5 pr-4 whitespace-nowrap text-slate-700 max-sm:p-0 max-sm:text-xs">{LISTING_TITLES[view.page]}</td>
      <td className="py-2.5 pr-4 max-sm:p-0">
        <span
          className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs ${view.scope === "TEAM" ? "bg-brand-50 text-brand-700" : "bg-slate-100 text-slate-700"}`}
        >
          <ScopeIcon className="size-3" aria-hidden />
          {view.scope === "TEAM" ? "Team" : "Personal"}
        </span>
      </td>
      <td className="py-2.5 pr-4 text-slate-700 max-sm:p-0 max-sm:text-xs" data-testid="view-owner">
        <span className="sm:hidden">by </span>
        <span className="wrap-anywhere">{ownerOf(view)}</span>
      </td>
      <td className="py-2.5 whitespace-nowrap text-slate-700 max-sm:p-0 max-sm:text-xs" data-testid="view-last-used">
        <span className="sm:hidden">· </span>
        {view.lastUsedAt ? (
          <time dateTime={view.lastUsedAt.toISOString()} title={exactUtc(view.lastUsedAt)}>
            <span className="sm:hidden">used </span>
            {relativeTo(view.lastUsedAt, now)}
          </time>
        ) : (
          <span className="text-slate-500">Not opened yet</span>
        )}
      </td>
    </tr>
  );
}

const VIEW_COLUMNS: SettingsColumn[] = [{ label: "View" }, { label: "List" }, { label: "Scope" }, { label: "Owner" }, { label: "Last used by you" }];

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
  const directory = await listViewDirectory(actor, directoryPageNumber(await props.searchParams));
  const now = new Date();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Saved views</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-700">
          Every view you can open: yours and the ones shared with <span className="wrap-anywhere">{actor.teamName}</span>, your favourites first. A view shows as a tab
          above its list; that tab&apos;s menu renames, shares, copies or deletes it.
        </p>
      </div>
      {directory.total === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 sm:p-6" data-testid="views-empty">
          No saved views yet. Open{" "}
          {LISTING_PAGES.map((page, index) => (
            <span key={page}>
              {index > 0 ? (index === LISTING_PAGES.length - 1 ? " or " : ", ") : null}
              <Link href={`/${page}`} prefetch={false} className="text-brand-700 underline">
                {LISTING_TITLES[page].toLowerCase()}
              </Link>
            </span>
          ))}
          , choose filters, and use “Save view…”.
        </p>
      ) : (
        <>
          <DirectoryPaging directory={directory} />
          <div className="rounded-xl border border-slate-200 bg-white px-4 sm:px-5">
            <SettingsTable fit="stack" testId="views-list" caption={`Saved views, ${directory.total.toLocaleString("en-US")} in all`} columns={VIEW_COLUMNS}>
              {directory.views.map((view) => (
                <ViewRow key={view.id} view={view} now={now} />
              ))}
            </SettingsTable>
          </div>
          {directory.pageCount > 1 ? <DirectoryPaging directory={directory} /> : null}
        </>
      )}
    </div>
  );
}
