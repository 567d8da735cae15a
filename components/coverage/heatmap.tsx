import Link from "next/link";
import type { CoverageWebhook } from "@/lib/coverage/compute";
import type { CellPanel, MarkState } from "@/lib/coverage/heatmap";
import { formatCount } from "@/lib/listing/format";
import { triggerObjectLabel } from "@/lib/setup/triggers";
import { webhookProblems } from "./coverage-cell";
import { Mark, MARK_WORDS } from "./marks";
import { plural } from "@/lib/text/plural";

/** Column headings that would not fit their narrow column (the full name is their title). */
const HEADER_LABELS: Record<string, string> = { session_attendance: "Attendance", registrant_line_item: "Line item" };

/** Webhooks a panel's action lists before "+N more"; the rest open in place. */
const SHOWN = 3;
/** Most webhooks one action lists in the page (a catch-all setup may have hundreds): the event's page has all. */
const MOST = 200;

export function HeatmapLegend() {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600" data-testid="coverage-legend">
      <span className="font-medium text-slate-700">Each object: insert · update · delete</span>
      {(Object.keys(MARK_WORDS) as MarkState[]).map((state) => (
        <span key={state} className="inline-flex items-center gap-1.5">
          <Mark state={state} /> {MARK_WORDS[state]}
        </span>
      ))}
    </div>
  );
}

/**
 * The grid's columns: the event, then one narrow column per object of the contract (a rare object
 * outside it takes a further line of the row). The rows' grid is app/globals.css `.heat-grid`.
 */
const GRID = "lg:grid-cols-[minmax(14rem,1fr)_repeat(8,4.25rem)]";

export function HeatmapHeader({ objects }: { objects: readonly string[] }) {
  return (
    <div className={`hidden items-end gap-x-1 border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs font-semibold text-slate-700 lg:grid ${GRID}`} aria-hidden>
      <span>Event</span>
      {objects.map((object) => (
        <span key={object} className="text-center leading-tight" title={triggerObjectLabel(object)}>
          {HEADER_LABELS[object] ?? triggerObjectLabel(object)}
        </span>
      ))}
    </div>
  );
}

function WebhookItem({ webhook }: { webhook: CoverageWebhook }) {
  const problems = webhookProblems(webhook);
  return (
    <li className="min-w-0 py-1" data-testid="panel-webhook">
      <Link href={`/webhooks/${webhook.webhookId}`} prefetch={false} className="block truncate font-medium text-brand-700 hover:underline">
        {webhook.webhookName || `Webhook ${webhook.webhookId}`}
      </Link>
      <span className="block truncate text-xs text-slate-600">
        <Link href={`/webhook-groups/${webhook.groupId}`} prefetch={false} className="hover:underline">
          {webhook.groupName || `Group ${webhook.groupId}`}
        </Link>{" "}
        → {webhook.host ?? "no URL"}
        {problems.length > 0 ? <span className="ml-1 rounded bg-amber-200/70 px-1 text-amber-950">{problems.join(", ")}</span> : null}
      </span>
    </li>
  );
}

/**
 * The panel of one event and object, in place under its row: for insert, update and delete, the
 * webhooks that cover it (to their page and their group), the first few and "+N more" that opens
 * in place.
 */
export function CellPanelView({ panel, closeHref }: { panel: CellPanel; closeHref: string }) {
  const name = panel.event.name || `Event ${panel.event.id}`;
  // Every webhook of the cell, once: the webhooks list (its `ids` option takes up to 100) and a plan.
  const ids = [...new Set(panel.actions.flatMap((action) => action.webhooks.map((webhook) => webhook.webhookId)))];
  const idList = ids.slice(0, 100).join(",");
  return (
    <section aria-labelledby="coverage-panel-title" className="mx-3 mb-3 rounded-lg border border-brand-200 bg-brand-50/40 p-3 text-sm" data-testid="coverage-panel">
      <div className="flex items-start justify-between gap-2">
        <h3 id="coverage-panel-title" className="min-w-0 font-semibold text-slate-900">
          {triggerObjectLabel(panel.object)} <span className="font-normal text-slate-600">for {name}</span>
        </h3>
        <Link href={closeHref} scroll={false} prefetch={false} className="shrink-0 rounded px-2 py-0.5 text-slate-600 hover:bg-white" aria-label="Close the panel">
          Close ✕
        </Link>
      </div>
      {ids.length > 0 ? (
        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm">
          <Link href={`/webhooks?${new URLSearchParams({ ids: idList })}`} prefetch={false} className="text-brand-700 underline" data-testid="panel-webhooks-list">
            {ids.length > 100 ? "The first 100 of these webhooks" : `${ids.length === 1 ? "This webhook" : `These ${formatCount(ids.length)} webhooks`}`} in the list
          </Link>
          <Link
            href={`/plans/new?${new URLSearchParams({ resource: "webhooks", ids: idList })}`}
            prefetch={false}
            className="text-brand-700 underline"
            data-testid="panel-change"
          >
            Change {ids.length === 1 ? "it" : "them"}…
          </Link>
        </p>
      ) : null}
      <div className="mt-2 grid gap-3 sm:grid-cols-3">
        {panel.actions.map((action) => {
          const listed = action.webhooks.slice(0, MOST);
          return (
            <div key={action.action} className="min-w-0" data-testid="panel-action" data-action={action.action}>
              <p className="flex items-center gap-1.5 font-medium capitalize text-slate-800">
                <Mark state={action.state} /> {action.action}
                <span className="font-normal normal-case text-slate-600">
                  · {action.webhooks.length ? plural(action.webhooks.length, "webhook") : MARK_WORDS[action.state]}
                </span>
              </p>
              {listed.length > 0 ? (
                <ul className="divide-y divide-slate-100">
                  {listed.slice(0, SHOWN).map((webhook) => (
                    <WebhookItem key={webhook.webhookId} webhook={webhook} />
                  ))}
                </ul>
              ) : null}
              {listed.length > SHOWN ? (
                <details className="group/more">
                  <summary className="cursor-pointer list-none py-1 text-brand-700 hover:underline group-open/more:hidden [&::-webkit-details-marker]:hidden">
                    +{formatCount(listed.length - SHOWN)} more
                  </summary>
                  <ul className="divide-y divide-slate-100">
                    {listed.slice(SHOWN).map((webhook) => (
                      <WebhookItem key={webhook.webhookId} webhook={webhook} />
                    ))}
                  </ul>
                </details>
              ) : null}
              {action.webhooks.length > MOST ? (
                <Link href={`/events/${panel.event.id}`} prefetch={false} className="text-xs text-brand-700 underline">
                  All {formatCount(action.webhooks.length)} on the event&apos;s page
                </Link>
              ) : null}
            </div>
          );
        })}
      </div>
    </section>
  );
}
