import type { Metadata } from "next";
import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { CHANGE_KINDS, feedHref, parseFeedParams, RECORD_KIND_FILTERS, type FeedFilters } from "@/lib/history/feed-params";
import { FIELD_LABELS } from "@/lib/history/describe";
import { listChanges } from "@/lib/history/feed";
import { canManageTeam } from "@/lib/access/roles";
import { ChangeList } from "@/components/history/change-list";
import { HistoryRefusal } from "@/components/history/history-refusal";
import { buttonClasses } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

export const metadata: Metadata = { title: "Changes" };

const KIND_WORDS: Record<(typeof RECORD_KIND_FILTERS)[number], string> = { group: "Webhook groups", webhook: "Webhooks", event: "Events" };
const CHANGE_WORDS: Record<(typeof CHANGE_KINDS)[number], string> = { added: "Added", removed: "Removed", changed: "Changed" };
/** A labelled filter: the control gets the id, name and look from here. */
function FilterField({ name, label, children }: { name: string; label: string; children: (props: { id: string; name: string; className: string }) => React.ReactNode }) {
  const id = `changes-${name}`;
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({ id, name, className: "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm" })}
    </div>
  );
}

function Options({ any, choices }: { any: string; choices: readonly (readonly [string, string])[] }) {
  return (
    <>
      <option value="">{any}</option>
      {choices.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}

function Filters({ filters }: { filters: FeedFilters }) {
  const active =
    ["group", "webhook", "event", "kind", "change", "field", "from", "to"].some((name) => filters[name as keyof FeedFilters] !== null) || filters.person !== "";
  return (
    <form
      method="get"
      action="/changes"
      className="grid grid-cols-2 gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3 lg:grid-cols-6"
      aria-label="Filter the changes"
      data-testid="changes-filters"
    >
      <FilterField name="kind" label="Record">
        {(props) => (
          <select {...props} defaultValue={filters.kind ?? ""}>
            <Options any="All" choices={RECORD_KIND_FILTERS.map((kind) => [kind, KIND_WORDS[kind]] as const)} />
          </select>
        )}
      </FilterField>
      <FilterField name="change" label="Change">
        {(props) => (
          <select {...props} defaultValue={filters.change ?? ""}>
            <Options any="Any" choices={CHANGE_KINDS.map((change) => [change, CHANGE_WORDS[change]] as const)} />
          </select>
        )}
      </FilterField>
      <FilterField name="field" label="Field">
        {(props) => (
          <select {...props} defaultValue={filters.field ?? ""}>
            <Options any="Any" choices={Object.entries(FIELD_LABELS)} />
          </select>
        )}
      </FilterField>
      <FilterField name="group" label="Group id">
        {(props) => <input {...props} inputMode="numeric" pattern="[0-9]*" defaultValue={filters.group ?? ""} />}
      </FilterField>
      <FilterField name="webhook" label="Webhook id">
        {(props) => <input {...props} inputMode="numeric" pattern="[0-9]*" defaultValue={filters.webhook ?? ""} />}
      </FilterField>
      <FilterField name="person" label="Changed by">
        {(props) => <input {...props} defaultValue={filters.person} placeholder="name or email" maxLength={200} />}
      </FilterField>
      <FilterField name="from" label="Seen from">
        {(props) => <input {...props} type="date" defaultValue={filters.from ?? ""} />}
      </FilterField>
      <FilterField name="to" label="Seen until">
        {(props) => <input {...props} type="date" defaultValue={filters.to ?? ""} />}
      </FilterField>
      {filters.event !== null ? <input type="hidden" name="event" value={filters.event} /> : null}
      <div className="col-span-2 flex items-end gap-2 sm:col-span-1">
        <button type="submit" className={buttonClasses("primary")}>
          Filter
        </button>
        {active ? (
          <Link href="/changes" className={buttonClasses("ghost")}>
            Clear
          </Link>
        ) : null}
      </div>
    </form>
  );
}

export default async function ChangesPage(props: PageProps<"/changes">) {
  const actor = await requireActor();
  const filters = parseFeedParams(await props.searchParams);
  const feed = await listChanges(actor, filters);
  const showAccount = new Set(feed.entries.map((entry) => entry.accountLabel)).size > 1;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Changes</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          What changed in the webhook setup, as the tracker&apos;s syncs saw it: who changed it in the EMS and when (when the EMS says), and when the portal noticed.
          Times are UTC.
        </p>
      </div>
      {filters.notices.map((notice) => (
        <Notice key={notice} tone="warning" testId="changes-notice">
          {notice}
        </Notice>
      ))}
      {!feed.tracking ? (
        <Notice tone="info" title="Nothing is tracked yet" testId="changes-not-tracking">
          {canManageTeam(actor.role) ? (
            <>
              Turn on change history for your account in{" "}
              <Link href="/settings#history-heading" className="font-medium underline">
                Settings
              </Link>
              : the first snapshot is taken at once, and every change after it shows here.
            </>
          ) : (
            <>An owner or admin can turn on change history in Settings; every change after its first snapshot shows here.</>
          )}
        </Notice>
      ) : feed.readable.length === 0 ? (
        // Tracked, but nothing this person may read (lib/history/access.ts): the rule and the way in.
        <HistoryRefusal accounts={feed.refused} testId="changes-refused" />
      ) : (
        <>
          <HistoryRefusal accounts={feed.refused} testId="changes-refused" />
          <Filters filters={filters} />
          <p className="text-sm text-slate-600" data-testid="changes-count" aria-live="polite">
            {feed.total === 0 ? "No changes match." : `${feed.total.toLocaleString("en")} change${feed.total === 1 ? "" : "s"}`}
            {feed.pageCount > 1 ? ` · page ${feed.page} of ${feed.pageCount}` : ""}
          </p>
          {feed.total === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600" data-testid="changes-empty">
              Nothing changed that matches these filters. Syncs keep looking on their schedule; Settings shows the last run.
            </div>
          ) : (
            <ChangeList entries={feed.entries} showAccount={showAccount} />
          )}
          {feed.pageCount > 1 ? (
            <nav aria-label="Pages of changes" className="flex items-center justify-between gap-2">
              {feed.page > 1 ? (
                <Link href={feedHref(filters, { page: feed.page - 1 })} className={buttonClasses("secondary")} rel="prev">
                  Newer
                </Link>
              ) : (
                <span />
              )}
              {feed.page < feed.pageCount ? (
                <Link href={feedHref(filters, { page: feed.page + 1 })} className={buttonClasses("secondary")} rel="next">
                  Older
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
