import type { Metadata } from "next";
import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { checkedCoverage } from "@/lib/coverage/checked";
import { getRequiredTriggers } from "@/lib/setup/requirements";
import { COVERAGE_PAGE_SIZE, coverageHref, parseCoverageParams, type CoverageState } from "@/lib/coverage/search-params";
import { selectCoverageRows } from "@/lib/coverage/view";
import { loadCoverageView, type CoverageViewOutcome } from "@/lib/coverage/stored";
import { loadSetup } from "@/lib/setup/load";
import { canManageTeam } from "@/lib/access/roles";
import { formatCount } from "@/lib/listing/format";
import { StateMessage } from "@/components/listing/state-message";
import { SetupFreshness, SetupStatus } from "@/components/setup/setup-freshness";
import { CellPanelView, HeatmapHeader, HeatmapLegend } from "@/components/coverage/heatmap";
import { HeatmapRows } from "@/components/coverage/heatmap-rows";
import { cellPanel, type CellPanel } from "@/lib/coverage/heatmap";
import type { Actor } from "@/lib/access/actor";
import type { TriggerKey } from "@/lib/setup/setup-data";
import { RequiredTriggers } from "@/components/coverage/required-triggers-form";
import { buttonClasses } from "@/components/ui/button";
import { plural, pluralWord } from "@/lib/text/plural";

export const metadata: Metadata = { title: "Coverage" };

const SORT_LABELS: Record<CoverageState["sort"], string> = {
  start: "Starts, soonest first",
  "-start": "Starts, latest first",
  name: "Name A–Z",
  "-name": "Name Z–A",
  gaps: "Most gaps first",
};

/** The options as a GET form: works without JavaScript, and every option lands in the URL. */
function CoverageOptions({ state }: { state: CoverageState }) {
  return (
    <form method="get" action="/coverage" className="flex flex-wrap items-end gap-3 text-sm" aria-label="Coverage options" data-testid="coverage-options">
      <label className="flex min-w-0 flex-col gap-1">
        <span className="font-medium text-slate-700">Event name contains</span>
        <input name="q" defaultValue={state.q} maxLength={200} className="w-56 max-w-full rounded-md border border-slate-300 px-2 py-1.5" />
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium text-slate-700">Events</span>
        <select name="scope" defaultValue={state.scope} className="rounded-md border border-slate-300 px-2 py-1.5">
          <option value="open">Upcoming and live</option>
          <option value="all">All, ended and cancelled too</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium text-slate-700">Show</span>
        <select name="only" defaultValue={state.only} className="rounded-md border border-slate-300 px-2 py-1.5">
          <option value="">Every event</option>
          <option value="gaps">Events with gaps</option>
          <option value="failing">Events missing a required trigger</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium text-slate-700">Sort</span>
        <select name="sort" defaultValue={state.sort} className="rounded-md border border-slate-300 px-2 py-1.5">
          {Object.entries(SORT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClasses("secondary", { size: "sm" })}>
        Apply
      </button>
    </form>
  );
}

/**
 * What fires for each event: the account's upcoming and live events (or all) against every
 * trigger its webhooks use, each cell naming the webhooks (group, webhook, URL host), marked when
 * none of them delivers; the team's required triggers as pass or fail per event. The rows are stored
 * per setup (lib/coverage/stored.ts), computed from the shared setup (lib/setup/load.ts: two listing
 * calls for the demo account, kept 60 s) only when it changed; an open cell's panel reads the setup.
 */
export default async function CoveragePage(props: PageProps<"/coverage">) {
  const actor = await requireActor();
  const state = parseCoverageParams(await props.searchParams);
  const required = await getRequiredTriggers(actor);
  const setup = await loadCoverageView(actor, state.scope, required);
  const returnTo = coverageHref(state);
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Coverage</h1>
          <p className="text-sm text-slate-600">Which webhooks fire for each event, and what is missing.</p>
        </div>
        {setup.kind === "ok" ? <SetupStatus setup={setup.setup} freshness={setup.freshness} budget={setup.budget} returnTo={returnTo} updating={setup.updating} /> : null}
      </div>
      {state.notices.map((notice) => (
        <p key={notice} role="status" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {notice}
        </p>
      ))}
      {setup.kind !== "ok" ? (
        <StateMessage failure={setup} retryHref={returnTo} />
      ) : (
        <CoverageBody
          actorCanEdit={canManageTeam(actor.role)}
          state={state}
          required={required}
          setup={setup}
          returnTo={returnTo}
          panel={state.cell ? openCellPanel(actor, state, required) : null}
        />
      )}
    </div>
  );
}

/**
 * The open cell's panel: the webhooks it names come from the setup itself (the stored rows hold only
 * their counts), computed as the whole report was (lib/coverage/checked.ts keeps it per setup).
 */
async function openCellPanel(actor: Actor, state: CoverageState, required: readonly TriggerKey[]): Promise<CellPanel | null> {
  if (!state.cell) return null;
  const setup = await loadSetup(actor);
  if (setup.kind !== "ok") return null;
  const report = checkedCoverage(setup.snapshot.data, { now: new Date(), statuses: state.scope, requiredTriggers: required });
  const row = report.events.find((event) => event.event.id === state.cell!.eventId);
  return row ? cellPanel(row, report.triggers, state.cell.object, new Set(required)) : null;
}

async function CoverageBody({
  state,
  required,
  setup,
  returnTo,
  actorCanEdit,
  panel,
}: {
  state: CoverageState;
  required: Awaited<ReturnType<typeof getRequiredTriggers>>;
  setup: Extract<CoverageViewOutcome, { kind: "ok" }>;
  returnTo: string;
  actorCanEdit: boolean;
  panel: Promise<CellPanel | null> | null;
}) {
  const report = setup.coverage;
  const rows = selectCoverageRows(report.events, state);
  const pageCount = Math.max(1, Math.ceil(rows.length / COVERAGE_PAGE_SIZE));
  const page = Math.min(state.page, pageCount);
  const shown = rows.slice((page - 1) * COVERAGE_PAGE_SIZE, page * COVERAGE_PAGE_SIZE);
  const { objects, failing, withGaps } = report;
  const openRow = state.cell ? shown.find((row) => row.event.id === state.cell!.eventId) : undefined;
  const openPanel = openRow && panel ? await panel : null;
  return (
    <>
      <SetupFreshness setup={setup.setup} freshness={setup.freshness} budget={setup.budget} returnTo={returnTo} status={false} updating={setup.updating} />
      <RequiredTriggers required={required} canEdit={actorCanEdit} />
      <CoverageOptions state={state} />
      <p className="text-sm text-slate-700" data-testid="coverage-summary">
        {formatCount(report.events.length)} {state.scope === "open" ? "upcoming and live" : ""} {pluralWord(report.events.length, "event")}; {formatCount(withGaps)} with
        gaps
        {required.length > 0 ? `; ${formatCount(failing)} missing a required trigger` : ""}.
        {rows.length !== report.events.length ? ` ${formatCount(rows.length)} match.` : ""}
      </p>
      {shown.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600" data-testid="coverage-empty">
          {report.events.length === 0 ? "This account has no events in this range." : "No event matches these options."}{" "}
          <Link href="/coverage?scope=all" className="text-brand-700 underline">
            Show every event
          </Link>
        </div>
      ) : (
        <div className="space-y-2">
          <HeatmapLegend />
          <div className="rounded-lg border border-slate-200 bg-white" data-testid="coverage-table">
            <HeatmapHeader objects={objects} />
            <ol aria-label="Webhooks that fire for each event and trigger object">
              <HeatmapRows
                rows={shown.map((row) => row.heat)}
                objects={objects}
                state={{ scope: state.scope, q: state.q, only: state.only, sort: state.sort, page: state.page, cell: state.cell }}
                panel={openPanel ? <CellPanelView panel={openPanel} closeHref={coverageHref(state, { cell: null })} /> : null}
              />
            </ol>
          </div>
        </div>
      )}
      {pageCount > 1 ? (
        <nav aria-label="Pages" className="flex flex-wrap items-center gap-3 text-sm">
          {page > 1 ? (
            <Link href={coverageHref(state, { page: page - 1, cell: null })} className="text-brand-700 underline">
              Previous
            </Link>
          ) : null}
          <span>
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link href={coverageHref(state, { page: page + 1, cell: null })} className="text-brand-700 underline">
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
      {report.neverFiringWebhooks > 0 ? (
        <p className="text-xs text-slate-600" data-testid="coverage-never-firing">
          {plural(report.neverFiringWebhooks, "webhook never fires", "webhooks never fire")} (insert, update and delete are all off), so no cell lists{" "}
          {report.neverFiringWebhooks === 1 ? "it" : "them"}.
        </p>
      ) : null}
      {report.unplacedWebhooks > 0 ? (
        <p className="text-xs text-slate-600" data-testid="coverage-unplaced">
          {plural(report.unplacedWebhooks, "webhook is", "webhooks are")} not shown: the API did not say which events or object{" "}
          {report.unplacedWebhooks === 1 ? "it fires" : "they fire"} for.
        </p>
      ) : null}
    </>
  );
}
