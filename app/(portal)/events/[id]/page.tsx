import type { Metadata } from "next";
import { formatCount } from "@/lib/listing/format";
import Link from "next/link";
import { notFound } from "next/navigation";
import { authedRecordPage } from "@/lib/actions/page";
import { parseRecordId } from "@/lib/listing/ids";
import { coverageForEvent, type SingleEventCoverage } from "@/lib/coverage/compute";
import { triggerLabel } from "@/lib/setup/triggers";
import type { EmsEvent } from "@/lib/ems";
import { loadHealthReport } from "@/lib/health/report";
import { loadEventPage } from "@/lib/listing/event";
import { loadSetup } from "@/lib/setup/load";
import { StateMessage } from "@/components/listing/state-message";
import { StatusBadge } from "@/components/listing/status-badge";
import { EventTime } from "@/components/ui/event-time";
import { Time } from "@/components/ui/time";
import { SetupFreshness } from "@/components/setup/setup-freshness";
import { setupFacts } from "@/lib/setup/stored-results";
import { cellWebhooks, WebhookLine } from "@/components/coverage/coverage-cell";
import { SeverityBadge } from "@/components/health/severity-badge";
import { SubjectLinks } from "@/components/health/subject-links";
import { Breadcrumb } from "@/components/ui/breadcrumb";

export const metadata: Metadata = { title: "Event" };

function EventDetails({ event }: { event: EmsEvent }) {
  const rows: [string, React.ReactNode][] = [
    ["ID", event.id],
    ["Status", <StatusBadge key="status" status={event.status} />],
    ["Starts", <EventTime key="starts" date={event.start_date} time={event.start_time} zone={event.timezone} />],
    ["Ends", <EventTime key="ends" date={event.end_date} time={event.end_time} zone={event.timezone} />],
    ["Time zone", event.timezone || "—"],
    ["Capacity", event.capacity ?? "—"],
    ["Free", event.free_event === 1 ? "Yes" : event.free_event === 0 ? "No" : "—"],
    ["URL slug", event.url || "—"],
    ["Created", event.created_at ? <Time key="created" value={event.created_at} /> : "—"],
    ["Updated", event.updated_at ? <Time key="updated" value={event.updated_at} /> : "—"],
  ];
  return (
    <dl
      className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr] [&>dd]:min-w-0 [&>dd]:break-words [&>dt]:font-semibold [&>dt]:text-slate-700"
      data-testid="event-details"
    >
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const STATE_WORDS = { ok: "Delivers", degraded: "Nothing delivers", none: "Nothing fires" } as const;

function WhatFires({ coverage, required }: { coverage: SingleEventCoverage; required: ReadonlySet<string> }) {
  if (coverage.cells.length === 0) {
    return (
      <p className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900" data-testid="event-uncovered">
        No webhook fires for this event: changes to its registrants, sessions or anything else reach none of your systems.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="event-coverage">
      {coverage.cells.map((cell) => {
        const webhooks = cellWebhooks(cell);
        return (
          <li key={cell.trigger} className="grid gap-1 p-3 text-sm sm:grid-cols-[14rem_1fr]" data-testid="event-trigger" data-state={cell.state}>
            <div>
              <span className="font-medium text-slate-900">{triggerLabel(cell.trigger)}</span>
              {required.has(cell.trigger) ? <span className="ml-1 rounded bg-slate-200 px-1 text-xs">required</span> : null}
              <span
                className={`block text-xs ${cell.state === "ok" ? "text-emerald-800" : cell.state === "degraded" ? "text-amber-900" : required.has(cell.trigger) ? "text-red-800" : "text-slate-600"}`}
              >
                {STATE_WORDS[cell.state]}
              </span>
            </div>
            <div className="min-w-0 space-y-0.5 text-xs">
              {webhooks.length === 0 ? <span className="text-slate-500">No webhook</span> : null}
              {webhooks.map((webhook) => (
                <Link key={webhook.webhookId} href={`/webhooks/${webhook.webhookId}`} scroll={false} className="block hover:bg-slate-50">
                  <WebhookLine webhook={webhook} />
                </Link>
              ))}
              {cell.anyEventWebhooks.length > 0 ? (
                <span className="block text-slate-500">{formatCount(cell.anyEventWebhooks.length)} of these fire for every event.</span>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * One event: its fields (a single-record read, 1 credit), then what fires for it, trigger by
 * trigger (group, webhook, URL host), from the shared setup, and the health findings about it.
 */
export default authedRecordPage(parseRecordId, async ({ actor, id }) => {
  const setup = loadSetup(actor);
  const [outcome, report] = await Promise.all([loadEventPage(actor, id), loadHealthReport(actor, { setup })]);
  if (outcome.kind === "ok" && !outcome.item) notFound();
  const setupOutcome = await setup;
  const returnTo = `/events/${id}`;
  const event = outcome.kind === "ok" ? outcome.item! : null;
  const coverage =
    setupOutcome.kind === "ok" && report.kind === "ok"
      ? coverageForEvent(setupOutcome.snapshot.data, id, { now: new Date(), requiredTriggers: report.requiredTriggers })
      : null;
  const findings = report.kind === "ok" ? report.active.filter((finding) => finding.subjects.some((subject) => subject.kind === "event" && subject.id === id)) : [];
  const findingsSection =
    findings.length > 0 ? (
      <section aria-labelledby="event-findings-heading" className="space-y-2">
        <h2 id="event-findings-heading" className="text-lg font-semibold text-slate-900">
          Health findings
        </h2>
        <ul className="space-y-2" data-testid="event-findings">
          {findings.map((finding) => (
            <li key={`${finding.ruleId}-${finding.key}`} className="space-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <SeverityBadge severity={finding.severity} />
                <span className="min-w-0 break-words">{finding.message}</span>
              </p>
              <SubjectLinks subjects={finding.subjects.filter((subject) => !(subject.kind === "event" && subject.id === id))} />
            </li>
          ))}
        </ul>
        <p className="text-sm">
          <Link href="/health" className="text-brand-700 underline">
            All findings on the Health page
          </Link>
        </p>
      </section>
    ) : null;
  return (
    <div className="space-y-6">
      <Breadcrumb trail={[{ href: "/events", label: "Events" }]} current={event?.name || `Event ${id}`} />
      {outcome.kind !== "ok" ? (
        <StateMessage failure={outcome} retryHref={returnTo} />
      ) : (
        <>
          <h1 className="break-words text-2xl font-semibold text-slate-900">{event!.name || `Event ${id}`}</h1>
          {/* Status first: what is wrong with this event's setup, before its fields. */}
          {findingsSection}
          <EventDetails event={event!} />
        </>
      )}
      {/* Without the event (no credentials, the API down), its coverage would only say the same again. */}
      {outcome.kind !== "ok" ? null : (
        <section aria-labelledby="fires-heading" className="space-y-3">
          <h2 id="fires-heading" className="text-lg font-semibold text-slate-900">
            What fires for this event
          </h2>
          {setupOutcome.kind !== "ok" ? (
            <StateMessage failure={setupOutcome} retryHref={returnTo} />
          ) : (
            <>
              <SetupFreshness setup={setupFacts(setupOutcome.snapshot)} freshness={setupOutcome.freshness} budget={setupOutcome.budget} returnTo={returnTo} />
              {coverage ? (
                <>
                  {coverage.requirements.length > 0 ? (
                    <p className={`text-sm ${coverage.requirementsMet ? "text-emerald-800" : "text-red-800"}`} data-testid="event-requirements">
                      {coverage.requirementsMet
                        ? "Every required trigger has an enabled webhook."
                        : `Missing required triggers: ${coverage.requirements
                            .filter((check) => !check.pass)
                            .map((check) => triggerLabel(check.trigger))
                            .join(", ")}.`}
                    </p>
                  ) : null}
                  <WhatFires coverage={coverage} required={new Set(report.kind === "ok" ? report.requiredTriggers : [])} />
                </>
              ) : (
                <p className="text-sm text-slate-600">This event is not in the account&apos;s setup as last read; refresh to read it again.</p>
              )}
            </>
          )}
        </section>
      )}
    </div>
  );
});
