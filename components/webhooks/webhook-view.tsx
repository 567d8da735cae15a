import Link from "next/link";
import { Suspense } from "react";
import type { ListingFailure } from "@/lib/ems-access/shared-read";
import type { GroupHistoryData } from "@/lib/history/group-history";
import type { WebhookForPage } from "@/lib/listing/header-values";
import { NEVER_FIRES_WORDS, webhookFiring, webhookHost } from "@/lib/setup/webhook-status";
import type { WebhookEventCoverage, WebhookPageContent, WebhookSurroundings } from "@/lib/webhooks/page";
import { LowBudgetNotice, StaleNotice } from "@/components/listing/freshness";
import { StatusBadge } from "@/components/listing/status-badge";
import { DataStatus } from "@/components/listing/data-status";
import { ChangeList } from "@/components/history/change-list";
import { AsOfForm } from "@/components/history/group-history";
import { Notice } from "@/components/ui/notice";
import { CopyButton } from "./copy-button";
import { WebhookCard } from "./webhook-details";
import { WebhookFiringPill } from "./webhook-firing-pill";
import { plural } from "@/lib/text/plural";

const SEVERITY_TONE = { error: "error", warning: "warning", notice: "info" } as const;
const ACTION_LETTER = { insert: "I", update: "U", delete: "D" } as const;

/**
 * A webhook on its own: the status line first (its health findings, "never fires", disabled on a
 * live event), then the whole configuration (header names only), the events it fires for with the
 * coverage cells it fills, and its history. The page and the side panel render the same.
 */
export function WebhookView({
  page: { webhook, budget, freshness, surroundings, eventNames },
  history,
  titleLevel = "h1",
}: {
  /** From lib/webhooks/page.ts: header names only (whatever is rendered goes out in the HTML and the RSC payload). */
  page: WebhookPageContent;
  history: Promise<GroupHistoryData> | null;
  titleLevel?: "h1" | "h2";
}) {
  const Title = titleLevel;
  const host = webhookHost(webhook.url);
  return (
    <div className="space-y-5" data-testid="webhook-view" data-webhook-id={webhook.id}>
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <Title className="min-w-0 break-words text-2xl font-semibold text-slate-900">{webhook.name || `Webhook ${webhook.id}`}</Title>
          <WebhookFiringPill webhook={webhook} />
          <span className="ml-auto">
            <DataStatus
              age={freshness.windowSeconds > 0 ? { seconds: freshness.ageSeconds, stale: freshness.stale, windowSeconds: freshness.windowSeconds } : null}
              budget={budget ? { limit: budget.limit, remaining: budget.remaining, resetInSeconds: budget.resetInSeconds, low: budget.low } : null}
            />
          </span>
        </div>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
          <span className="inline-flex items-center gap-1">
            ID {webhook.id} <CopyButton value={String(webhook.id)} label="the webhook's id" testId="copy-webhook-id" />
          </span>
          {webhook.group_id != null ? (
            <span className="inline-flex items-center gap-1">
              Group{" "}
              <Link href={`/webhook-groups/${webhook.group_id}`} className="text-brand-700 underline" data-testid="webhook-group-link">
                <Suspense fallback={`#${webhook.group_id}`}>
                  <GroupName surroundings={surroundings} groupId={webhook.group_id} />
                </Suspense>
              </Link>
              <CopyButton value={String(webhook.group_id)} label="the group's id" testId="copy-group-id" />
            </span>
          ) : null}
        </p>
        {webhook.url ? (
          <p className="flex min-w-0 items-start gap-2">
            <code className="min-w-0 break-all font-mono text-xs text-slate-800" data-testid="webhook-url" title={host}>
              {webhook.url}
            </code>
            <CopyButton value={webhook.url} label="the URL" testId="copy-webhook-url" />
          </p>
        ) : null}
        <Suspense fallback={<div className="h-10 animate-pulse rounded-md bg-slate-100" aria-label="Loading the webhook's status" />}>
          <StatusLine webhook={webhook} surroundings={surroundings} />
        </Suspense>
        <LowBudgetNotice budget={budget} />
        <StaleNotice freshness={freshness} budget={budget} />
      </div>

      <section aria-labelledby="config-heading" className="space-y-2">
        <h2 id="config-heading" className="text-lg font-semibold text-slate-900">
          Configuration
        </h2>
        <WebhookCard groupId={webhook.group_id ?? null} webhook={webhook} eventNames={eventNames} heading={false} />
      </section>

      <section aria-labelledby="coverage-heading" className="space-y-2">
        <h2 id="coverage-heading" className="text-lg font-semibold text-slate-900">
          Events and coverage
        </h2>
        <Suspense fallback={<div className="h-24 animate-pulse rounded-md bg-slate-100" aria-label="Loading the events" />}>
          <EventsAndCoverage webhook={webhook} surroundings={surroundings} />
        </Suspense>
      </section>

      {history && webhook.group_id != null ? (
        <Suspense fallback={<div className="h-24 animate-pulse rounded-md bg-slate-100" aria-label="Loading the history" />}>
          <WebhookHistory webhookId={webhook.id} groupId={webhook.group_id} history={history} />
        </Suspense>
      ) : null}
    </div>
  );
}

async function GroupName({ surroundings, groupId }: { surroundings: Promise<WebhookSurroundings | ListingFailure>; groupId: number }) {
  const found = await surroundings;
  return <>{"groupName" in found && found.groupName ? found.groupName : `#${groupId}`}</>;
}

/** Findings and warnings first: what is wrong with this webhook, then whether it can fire at all. */
async function StatusLine({ webhook, surroundings }: { webhook: WebhookForPage; surroundings: Promise<WebhookSurroundings | ListingFailure> }) {
  const found = await surroundings;
  const firing = webhookFiring(webhook);
  const items: React.ReactNode[] = [];
  if (firing.state === "disabled") {
    items.push(
      <Notice key="disabled" tone="warning" title="Disabled: this webhook never fires" testId="webhook-never-fires">
        Nothing is sent until it is enabled again in the EMS, and changes made meanwhile are not replayed.
      </Notice>,
    );
  }
  if (firing.state === "never-fires") {
    items.push(
      <Notice key="never" tone="warning" title="This webhook never fires" testId="webhook-never-fires">
        {firing.reasons.map((reason) => NEVER_FIRES_WORDS[reason]).join("; ")}.
      </Notice>,
    );
  }
  if ("findings" in found) {
    for (const finding of found.findings) {
      items.push(
        <Notice key={`${finding.ruleId}:${finding.key}`} tone={SEVERITY_TONE[finding.severity]} testId="webhook-finding">
          <span className="font-semibold capitalize">{finding.severity}:</span> {finding.message}
        </Notice>,
      );
    }
    if (firing.state === "disabled" && found.liveEventCount > 0 && !found.findings.some((finding) => finding.ruleId === "disabled-webhook-live-event")) {
      items.push(
        <Notice key="disabled-live" tone="warning" testId="webhook-disabled-live">
          Disabled, but set up for {plural(found.liveEventCount, "live event")}.
        </Notice>,
      );
    }
  } else {
    items.push(
      <p key="unknown" className="text-sm text-slate-600" data-testid="webhook-health-unknown">
        Its health checks could not be run now ({found.kind === "no-credentials" ? "no credentials" : "the EMS API did not answer"}).
      </p>,
    );
  }
  if (items.length === 0) {
    return (
      <p className="text-sm text-green-800" data-testid="webhook-no-findings">
        No findings: the health checks have nothing to say about this webhook.
        {"mutedCount" in found && found.mutedCount > 0 ? ` (${found.mutedCount} muted.)` : ""}
      </p>
    );
  }
  return (
    <div className="space-y-2" data-testid="webhook-status-line">
      {items}
      {"mutedCount" in found && found.mutedCount > 0 ? <p className="text-xs text-slate-600">{found.mutedCount} more muted.</p> : null}
    </div>
  );
}

async function EventsAndCoverage({ webhook, surroundings }: { webhook: WebhookForPage; surroundings: Promise<WebhookSurroundings | ListingFailure> }) {
  const found = await surroundings;
  if (!("events" in found)) return <p className="text-sm text-slate-600">The account&apos;s events could not be read now.</p>;
  const { events, unknownEventIds } = found;
  const cells = events[0]?.cells ?? [];
  return (
    <div className="space-y-2 text-sm">
      <p className="text-slate-700" data-testid="webhook-coverage-summary">
        {webhook.any_event ? "Set up for every event" : `Set up for ${plural(events.length + unknownEventIds.length, "event")}`}
        {events.length > 0
          ? cells.length > 0
            ? `; it fills the coverage cells ${cells.join(", ")} for each.`
            : "; it fills no coverage cell (disabled, or no action switched on)."
          : "."}
      </p>
      {unknownEventIds.length > 0 ? <p className="text-amber-800">Not in this account: event {unknownEventIds.join(", ")}.</p> : null}
      {events.length > 0 ? <EventTable events={events} /> : null}
    </div>
  );
}

/** At most this many events in the table: a catch-all webhook of a large account would list thousands. */
const EVENTS_SHOWN = 50;

function EventTable({ events }: { events: WebhookEventCoverage[] }) {
  const shown = [...events].sort((a, b) => Number(b.live) - Number(a.live)).slice(0, EVENTS_SHOWN);
  return (
    <>
      <p className="flex items-start gap-x-2 text-xs text-slate-600" data-testid="trigger-marks-legend">
        <span className="trigger-marks" aria-hidden>
          <span data-on="">I</span>
          <span data-on="">U</span>
          <span data-on="">D</span>
        </span>
        <span>Insert, update and delete: marked where this webhook fires for the event.</span>
      </p>
      <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" data-testid="webhook-events-list">
        {shown.map((event) => (
          <li key={event.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5">
            <Link href={`/events/${event.id}`} className="min-w-0 break-words text-brand-700 underline" data-testid="webhook-event-page-link">
              {event.name}
            </Link>
            {event.status ? <StatusBadge status={event.status} /> : null}
            <span className="ml-auto trigger-marks" role="img" aria-label={event.cells.length ? `fills ${event.cells.join(", ")}` : "fills no cell"}>
              {(["insert", "update", "delete"] as const).map((action) => (
                <span key={action} aria-hidden data-on={event.cells.some((cell) => cell.endsWith(`:${action}`)) ? "" : undefined}>
                  {ACTION_LETTER[action]}
                </span>
              ))}
            </span>
          </li>
        ))}
      </ul>
      {events.length > EVENTS_SHOWN ? (
        <p className="text-xs text-slate-600">
          Live events first; {events.length - EVENTS_SHOWN} more on the{" "}
          <Link href="/coverage" className="text-brand-700 underline">
            Coverage
          </Link>{" "}
          page.
        </p>
      ) : null}
    </>
  );
}

async function WebhookHistory({ webhookId, groupId, history }: { webhookId: number; groupId: number; history: Promise<GroupHistoryData> }) {
  const data = await history;
  return (
    <section aria-labelledby="history-heading" className="space-y-3" data-testid="webhook-history">
      <h2 id="history-heading" className="text-lg font-semibold text-slate-900">
        History
      </h2>
      {!data.tracked ? (
        <p className="text-sm text-slate-600">
          Changes to this webhook are not tracked. Owners and admins can turn on change history in{" "}
          <Link href="/settings/tracking" className="text-brand-700 underline">
            Settings
          </Link>
          .
        </p>
      ) : (
        <>
          {data.entries.length === 0 ? (
            <p className="text-sm text-slate-600">No changes to this webhook in the last 30 days.</p>
          ) : (
            <ChangeList entries={data.entries} compact />
          )}
          <div className="flex flex-wrap items-end justify-between gap-3">
            {/* The past of a webhook is its group's past (change history rebuilds groups with their webhooks). */}
            <AsOfForm groupId={groupId} />
            <Link href={`/changes?webhook=${webhookId}`} className="text-sm text-brand-700 underline" data-testid="webhook-all-changes">
              Every change to this webhook
            </Link>
          </div>
        </>
      )}
    </section>
  );
}
