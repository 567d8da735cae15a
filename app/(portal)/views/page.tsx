import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/forms/action-form";
import { copyViewAction } from "@/lib/actions/views/copy-view";
import { deleteViewAction } from "@/lib/actions/views/delete-view";
import { setDefaultViewAction } from "@/lib/actions/views/set-default-view";
import { updateViewAction } from "@/lib/actions/views/update-view";
import { requireActor } from "@/lib/auth/session";
import { listViews, viewHref, type ViewSummary } from "@/lib/views/views";
import { LISTING_PAGES, type ListingPage } from "@/lib/views/validation";

export const metadata: Metadata = { title: "Saved views" };

const PAGE_TITLES: Record<ListingPage, string> = { "webhook-groups": "Webhook groups", events: "Events" };
const button = "rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100";

function ViewRow({ view }: { view: ViewSummary }) {
  const href = viewHref(view);
  return (
    <li className="space-y-2 rounded-md border border-slate-200 bg-white p-3" data-testid="view-row" data-view-name={view.name}>
      <div className="flex flex-wrap items-baseline gap-2">
        <Link href={href} className="font-medium text-brand-700 underline" data-testid="open-view">
          {view.name}
        </Link>
        <span className={`rounded px-1.5 py-0.5 text-xs ${view.scope === "TEAM" ? "bg-brand-50 text-brand-700" : "bg-slate-100 text-slate-700"}`}>
          {view.scope === "TEAM" ? "Team" : "Personal"}
        </span>
        {view.isDefault ? <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs text-green-900">Your default</span> : null}
        <span className="text-xs text-slate-600">
          {view.scope === "TEAM" ? `shared by ${view.isMine ? "you" : (view.ownerName ?? "a former member")}` : null}
        </span>
      </div>
      <p className="break-all font-mono text-xs text-slate-600">{view.query || "(no options: the whole list)"}</p>
      <div className="flex flex-wrap items-end gap-3">
        <ActionForm action={setDefaultViewAction} className="flex flex-wrap items-center gap-2" label={`Default for ${view.name}`}>
          <input type="hidden" name="page" value={view.page} />
          <input type="hidden" name="viewId" value={view.isDefault ? "" : view.id} />
          <button type="submit" className={button}>
            {view.isDefault ? "Stop opening by default" : "Open by default"}
          </button>
        </ActionForm>
        <ActionForm action={copyViewAction} className="flex flex-wrap items-center gap-2" label={`Copy ${view.name}`}>
          <input type="hidden" name="viewId" value={view.id} />
          <button type="submit" className={button} data-testid="copy-view">
            Copy to my views
          </button>
        </ActionForm>
        {view.canManage ? (
          <>
            <ActionForm action={updateViewAction} className="flex flex-wrap items-end gap-2" label={`Rename ${view.name}`}>
              <input type="hidden" name="viewId" value={view.id} />
              <div className="flex flex-col">
                <label htmlFor={`rename-${view.id}`} className="text-xs text-slate-700">
                  New name
                </label>
                <input id={`rename-${view.id}`} name="name" required maxLength={80} defaultValue={view.name} className="rounded border border-slate-300 px-2 py-1 text-sm" />
              </div>
              <button type="submit" className={button} data-testid="rename-view">
                Rename
              </button>
            </ActionForm>
            {view.scope === "PERSONAL" || view.isMine ? (
              <ActionForm action={updateViewAction} className="flex flex-wrap items-center gap-2" label={`Sharing of ${view.name}`}>
                <input type="hidden" name="viewId" value={view.id} />
                <input type="hidden" name="scope" value={view.scope === "TEAM" ? "PERSONAL" : "TEAM"} />
                <button type="submit" className={button} data-testid="toggle-share">
                  {view.scope === "TEAM" ? "Make personal" : "Share with my team"}
                </button>
              </ActionForm>
            ) : null}
            <ActionForm action={deleteViewAction} className="flex flex-wrap items-center gap-2" label={`Delete ${view.name}`}>
              <input type="hidden" name="viewId" value={view.id} />
              <button type="submit" className="rounded border border-red-300 px-2 py-1 text-sm text-red-800 hover:bg-red-50" data-testid="delete-view">
                Delete
              </button>
            </ActionForm>
          </>
        ) : null}
      </div>
    </li>
  );
}

export default async function ViewsPage() {
  const actor = await requireActor();
  const views = await listViews(actor);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Saved views</h1>
        <p className="mt-1 text-sm text-slate-700">
          A view is a name for a list&apos;s options. Save one from the Webhook groups or Events page. Team views are seen by everyone in{" "}
          {actor.teamName}; owners and admins (and whoever shared one) manage them, and everyone can copy them.
        </p>
      </div>
      {LISTING_PAGES.map((page) => {
        const mine = views.filter((v) => v.page === page && v.scope === "PERSONAL");
        const team = views.filter((v) => v.page === page && v.scope === "TEAM");
        return (
          <section key={page} aria-labelledby={`views-${page}`} className="space-y-3">
            <h2 id={`views-${page}`} className="text-lg font-semibold text-slate-900">
              {PAGE_TITLES[page]}
            </h2>
            {mine.length + team.length === 0 ? (
              <p className="text-sm text-slate-600">
                No saved views yet.{" "}
                <Link href={`/${page}`} className="text-brand-700 underline">
                  Open {PAGE_TITLES[page].toLowerCase()}
                </Link>{" "}
                and use “Save as view…”.
              </p>
            ) : null}
            {mine.length > 0 ? (
              <div>
                <h3 className="mb-1 text-sm font-semibold uppercase text-slate-600">My views</h3>
                <ul className="space-y-2">{mine.map((v) => <ViewRow key={v.id} view={v} />)}</ul>
              </div>
            ) : null}
            {team.length > 0 ? (
              <div>
                <h3 className="mb-1 text-sm font-semibold uppercase text-slate-600">Team views</h3>
                <ul className="space-y-2">{team.map((v) => <ViewRow key={v.id} view={v} />)}</ul>
              </div>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
