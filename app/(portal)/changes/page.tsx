import type { Metadata } from "next";
import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { CHANGE_KINDS, feedHref, parseFeedParams, RECORD_KIND_FILTERS, type FeedFilters } from "@/lib/history/feed-params";
import { FIELD_LABELS } from "@/lib/history/describe";
import { listChanges } from "@/lib/history/feed";
import { canManageTeam } from "@/lib/access/roles";
import { ChangeList } from "@/components/history/change-list";
import { Time } from "@/components/ui/time";
import type { TrackedAccount } from "@/lib/history/access";
import { HistoryRefusal } from "@/components/history/history-refusal";
import { buttonClasses } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { FilterChips, type FilterChip } from "@/components/ui/filter-chips";
import { plural } from "@/lib/text/plural";

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

/** The kinds a skim looks for, as chips: each sets the change or the field filter (and clears the other). */
const QUICK_CHIPS: readonly { label: string; change: FeedFilters["change"]; field: string | null }[] = [
  { label: "Added", change: "added", field: null },
  { label: "Removed", change: "removed", field: null },
  { label: "Enabled / disabled", change: null, field: "enabled" },
  { label: "URL", change: null, field: "url" },
  { label: "Headers", change: null, field: "headers" },
  { label: "Events", change: null, field: "event_ids" },
  { label: "Renamed", change: null, field: "name" },
];

function QuickChips({ filters }: { filters: FeedFilters }) {
  const none = filters.change === null && filters.field === null;
  const chip =
    "rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-50 aria-[current=true]:bg-brand-600 aria-[current=true]:text-white aria-[current=true]:ring-brand-600";
  return (
    <nav aria-label="Kind of change" className="flex flex-wrap gap-1.5" data-testid="changes-kind-chips">
      <Link href={feedHref(filters, { change: null, field: null, page: 1 })} prefetch={false} aria-current={none ? "true" : undefined} className={chip}>
        All
      </Link>
      {QUICK_CHIPS.map((quick) => {
        const current = filters.change === quick.change && filters.field === quick.field;
        return (
          <Link
            key={quick.label}
            href={feedHref(filters, current ? { change: null, field: null, page: 1 } : { change: quick.change, field: quick.field, page: 1 })}
            prefetch={false}
            aria-current={current ? "true" : undefined}
            className={chip}
          >
            {quick.label}
          </Link>
        );
      })}
    </nav>
  );
}

/** The filters in force as removable chips. */
function ActiveChips({ filters }: { filters: FeedFilters }) {
  const chips: FilterChip[] = [];
  const without = (change: Partial<FeedFilters>) => feedHref(filters, { ...change, page: 1 });
  if (filters.kind) chips.push({ label: KIND_WORDS[filters.kind], removeHref: without({ kind: null }) });
  if (filters.change) chips.push({ label: CHANGE_WORDS[filters.change], removeHref: without({ change: null }) });
  if (filters.field) chips.push({ label: `Field: ${FIELD_LABELS[filters.field] ?? filters.field}`, removeHref: without({ field: null }) });
  if (filters.group !== null) chips.push({ label: `Group ${filters.group}`, removeHref: without({ group: null }) });
  if (filters.webhook !== null) chips.push({ label: `Webhook ${filters.webhook}`, removeHref: without({ webhook: null }) });
  if (filters.event !== null) chips.push({ label: `Event ${filters.event}`, removeHref: without({ event: null }) });
  if (filters.person) chips.push({ label: `By “${filters.person}”`, removeHref: without({ person: "" }) });
  if (filters.from) chips.push({ label: `From ${filters.from}`, removeHref: without({ from: null }) });
  if (filters.to) chips.push({ label: `Until ${filters.to}`, removeHref: without({ to: null }) });
  return <FilterChips chips={chips} clearHref="/changes" testId="changes-filter-chips" />;
}

function Filters({ filters }: { filters: FeedFilters }) {
  const active =
    ["group", "webhook", "event", "kind", "change", "field", "from", "to"].some((name) => filters[name as keyof FeedFilters] !== null) || filters.person !== "";
  // The full form opens on demand; a filter only it sets keeps it open.
  const advanced = ["group", "webhook", "kind", "from", "to"].some((name) => filters[name as keyof FeedFilters] !== null) || filters.person !== "";
  return (
    <div className="space-y-2" data-testid="changes-filters">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <QuickChips filters={filters} />
        <ActiveChips filters={filters} />
      </div>
      <details open={advanced} className="rounded-lg border border-slate-200 bg-white">
        <summary className="cursor-pointer px-4 py-2 text-sm font-medium text-slate-700">More filters</summary>
        <form
          method="get"
          action="/changes"
          className="grid grid-cols-2 gap-3 border-t border-slate-100 p-4 sm:grid-cols-3 lg:grid-cols-6"
          aria-label="Filter the changes"
          data-testid="changes-filter-form"
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
      </details>
    </div>
  );
}

export default async function ChangesPage(props: PageProps<"/changes">) {
  const actor = await requireActor();
  const filters = parseFeedParams(await props.searchParams);
  const feed = await listChanges(actor, filters);
  // The page as first opened: an empty feed then means nothing changed yet, not "no match".
  const unfiltered = feedHref(filters) === feedHref(parseFeedParams(new URLSearchParams()));
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
              <Link href="/settings/tracking" className="font-medium underline">
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
          <TrackingSince accounts={feed.readable} />
          <p className="text-sm text-slate-600" data-testid="changes-count" aria-live="polite">
            {feed.total === 0 ? (unfiltered ? "" : "No changes match.") : plural(feed.total, "change")}
            {feed.pageCount > 1 ? ` · page ${feed.page} of ${feed.pageCount}` : ""}
          </p>
          {feed.total === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600" data-testid="changes-empty">
              {unfiltered
                ? "No change yet. Every change from the first snapshot on shows here; syncs keep looking on their schedule."
                : "Nothing changed that matches these filters. Syncs keep looking on their schedule; Settings shows the last run."}
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

/** Since when the history knows each account, and whether its first snapshot is taken yet. */
function TrackingSince({ accounts }: { accounts: readonly TrackedAccount[] }) {
  return (
    <ul className="space-y-0.5 text-sm text-slate-600" data-testid="changes-tracking-since">
      {accounts.map((account) => (
        <li key={account.id} className="[overflow-wrap:anywhere]">
          Tracking {accounts.length > 1 ? <span className="font-medium text-slate-800">{account.accountLabel} </span> : null}since <Time value={account.trackingSince} />
          {account.lastSyncAt ? (
            <>
              {" "}
              · last sync <Time value={account.lastSyncAt} />
            </>
          ) : (
            " · taking the first snapshot"
          )}
        </li>
      ))}
    </ul>
  );
}
