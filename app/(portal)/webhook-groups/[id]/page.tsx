import type { Metadata } from "next";
import { formatCount } from "@/lib/listing/format";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { HeaderList } from "@/components/webhooks/header-list";
import { StateMessage } from "@/components/listing/state-message";
import { DataAge, LowBudgetNotice, StaleNotice } from "@/components/listing/freshness";
import { WebhookDetailsList } from "@/components/webhooks/webhook-details";
import { TargetFlashScope } from "@/components/webhooks/target-flash-scope";
import { AsOfForm, asOfValue, GroupHistory } from "@/components/history/group-history";
import { Notice } from "@/components/ui/notice";
import { GroupBackToButton } from "@/components/plans/group-back-to-button";
import type { Actor } from "@/lib/access/actor";
import { historyAccess } from "@/lib/history/access";
import { groupAsOf, parseAsOfParam, trackerForActor } from "@/lib/history/as-of";
import { loadGroupHistory } from "@/lib/history/group-history";
import { HistoryRefusal } from "@/components/history/history-refusal";
import { authedRecordPage } from "@/lib/actions/page";
import { parseRecordId } from "@/lib/listing/ids";
import { loadGroupEventNames, loadGroupPage, type EventNames } from "@/lib/listing/group";
import { withoutHeaderValues, type GroupForPage } from "@/lib/listing/header-values";
import type { Freshness, RateBudget } from "@/lib/ems-access/shared-read";
import { loadHealthReport, type HealthOutcome } from "@/lib/health/report";
import { SeverityBadge } from "@/components/health/severity-badge";
import { Time } from "@/components/ui/time";
import { formatDateTime } from "@/lib/time/format";
import { Breadcrumb } from "@/components/ui/breadcrumb";

export const metadata: Metadata = { title: "Webhook group" };

function GroupDetails({
  group,
  budget,
  freshness,
  eventNames,
  history,
  status,
}: {
  /** Header names only: whatever is rendered here goes out in the HTML and the RSC payload. */
  group: GroupForPage;
  budget: RateBudget | null;
  freshness: Freshness;
  eventNames: Promise<EventNames> | null;
  history: React.ReactNode;
  /** Its health findings, shown first. */
  status: React.ReactNode;
}) {
  const emails = group.notification_emails ?? [];
  const webhooks = group.webhooks ?? [];
  return (
    <div className="space-y-6" data-testid="group-details">
      <div className="space-y-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h1 className="min-w-0 break-words text-2xl font-semibold text-slate-900">{group.name || `Webhook group ${group.id}`}</h1>
          <DataAge freshness={freshness} budget={budget} refresh={{ resource: "webhook-groups", search: "", groupId: group.id }} />
        </div>
        {status}
        <LowBudgetNotice budget={budget} />
        <StaleNotice freshness={freshness} budget={budget} />
      </div>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr] [&>dd]:min-w-0 [&>dt]:font-semibold [&>dt]:text-slate-700">
        <dt>ID</dt>
        <dd>{group.id}</dd>
        <dt>Notification emails</dt>
        <dd className="break-words" data-testid="group-emails">
          {emails.length ? emails.join(", ") : <span className="text-amber-800">None: nobody hears when a delivery fails</span>}
        </dd>
        <dt>Headers</dt>
        <dd>
          <HeaderList headers={group.headers} place={{ groupId: group.id }} />
        </dd>
      </dl>
      <section aria-labelledby="webhooks-heading" className="space-y-2">
        <h2 id="webhooks-heading" className="text-lg font-semibold text-slate-900">
          Webhooks <span className="text-sm font-normal text-slate-600">({formatCount(webhooks.length)})</span>
        </h2>
        <TargetFlashScope>
          <WebhookDetailsList groupId={group.id} webhooks={webhooks} eventNames={eventNames} />
        </TargetFlashScope>
      </section>
      {history}
    </div>
  );
}

/** Status first: the health findings about the group or any of its webhooks, streamed in when the setup is read. */
async function GroupFindings({ report, groupId }: { report: Promise<HealthOutcome>; groupId: number }) {
  const outcome = await report;
  if (outcome.kind !== "ok") return null;
  const findings = outcome.active.filter((finding) =>
    finding.subjects.some((subject) => (subject.kind === "group" && subject.id === groupId) || (subject.kind === "webhook" && subject.groupId === groupId)),
  );
  if (findings.length === 0) {
    return (
      <p className="text-sm text-emerald-800" data-testid="group-no-findings">
        No health findings about this group or its webhooks.
      </p>
    );
  }
  return (
    <ul className="space-y-1.5" data-testid="group-findings" aria-label="Health findings">
      {findings.map((finding) => (
        <li key={`${finding.ruleId}-${finding.key}`} className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm">
          <SeverityBadge severity={finding.severity} />
          <span className="min-w-0 break-words">{finding.message}</span>
        </li>
      ))}
    </ul>
  );
}

/** The group as change history says it was at `at`: no EMS call; header values are not shown. */
async function PastGroup({ actor, id, at }: { actor: Actor; id: number; at: Date }) {
  const tracker = await trackerForActor(actor);
  const back = (
    <Link href={`/webhook-groups/${id}`} className="font-medium underline">
      Back to now
    </Link>
  );
  if (!tracker) {
    // No credential of their own, in a team that tracks accounts they may not read: say why.
    const access = await historyAccess(actor);
    if (access.reason === "no-credential") return <HistoryRefusal accounts={access.refused} testId="as-of-refused" />;
    return (
      <Notice tone="info" title="This account is not tracked" testId="as-of-untracked">
        The past of a group comes from change history, which is off for your account. {back}
      </Notice>
    );
  }
  const past = await groupAsOf(actor, tracker.id, id, at);
  if (past.kind === "before-history") {
    return (
      <Notice tone="info" title="Before history began" testId="as-of-before">
        {past.firstSync ? (
          <>
            Tracking started on <Time value={past.firstSync} />; nothing is known of the group before then.
          </>
        ) : (
          "No snapshot has been taken yet."
        )}{" "}
        {back}
      </Notice>
    );
  }
  // Change history keeps no values; the page holds names only, as the present's does.
  const group = past.kind === "ok" ? withoutHeaderValues(past.group) : null;
  return (
    <div className="space-y-4" data-testid="group-as-of">
      <Notice tone="info" title={`As of ${formatDateTime(at, "UTC")} UTC`}>
        Rebuilt from change history (the snapshot of <Time value={past.rebuiltFrom} /> and the changes after it). Header values are not shown. {back}
      </Notice>
      <AsOfForm groupId={id} value={asOfValue(at)} />
      {!group ? (
        <p className="text-sm text-slate-700" data-testid="as-of-missing">
          The group did not exist in the account at that time.
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <h1 className="min-w-0 break-words text-2xl font-semibold text-slate-900">{group.name || `Webhook group ${id}`}</h1>
            <div className="max-w-sm space-y-1 text-sm text-slate-600">
              <GroupBackToButton groupId={id} at={at.toISOString()} />
              <p>Drafts a plan that makes the group and its webhooks what they were then, header values included. You review it before anything changes.</p>
            </div>
          </div>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr] [&>dd]:min-w-0 [&>dt]:font-semibold [&>dt]:text-slate-700">
            <dt>ID</dt>
            <dd>{id}</dd>
            <dt>Notification emails</dt>
            <dd className="break-words">{group.notification_emails?.length ? group.notification_emails.join(", ") : "None"}</dd>
            <dt>Headers</dt>
            <dd>
              <HeaderList headers={group.headers} place={null} />
            </dd>
          </dl>
          <section aria-labelledby="webhooks-heading" className="space-y-2">
            <h2 id="webhooks-heading" className="text-lg font-semibold text-slate-900">
              Webhooks <span className="text-sm font-normal text-slate-600">({group.webhooks?.length ?? 0})</span>
            </h2>
            <WebhookDetailsList groupId={null} webhooks={group.webhooks ?? []} eventNames={null} />
          </section>
        </>
      )}
    </div>
  );
}

/**
 * One group, read on its own (one credit, shared like a listing: lib/listing/group.ts). Nothing
 * streams before the group is known: a group that does not exist (or is not in this person's
 * account) answers a real 404, and the status is fixed once the first byte is sent. So this route
 * has no loading.tsx (the list's lives in its (list) group) and no Suspense above the lookup; the
 * wait is bounded by the page budget (EMS_PAGE_BUDGET_MS, lib/listing/load.ts). The names of the
 * events its webhooks fire for, and the group's history, come after, streamed into the page.
 * With `?asOf=` the page shows the group as change history says it was then, without an EMS call.
 */
export default authedRecordPage(parseRecordId, async ({ actor, id, search }) => {
  const asOf = parseAsOfParam(search);
  const breadcrumb = <Breadcrumb trail={[{ href: "/webhook-groups", label: "Webhook groups" }]} current={id} />;
  if (asOf instanceof Date) {
    return (
      <div className="space-y-4">
        {breadcrumb}
        <PastGroup actor={actor} id={id} at={asOf} />
      </div>
    );
  }
  const outcome = await loadGroupPage(actor, id);
  if (outcome.kind === "ok" && !outcome.item) notFound();
  // Started now, shown when they come (streamed into the page): the names of the events its webhooks
  // fire for, and the group's history.
  const eventNames = outcome.kind === "ok" ? loadGroupEventNames(actor, outcome.item!) : null;
  const history = outcome.kind === "ok" ? loadGroupHistory(actor, id) : null;
  const report = outcome.kind === "ok" ? loadHealthReport(actor) : null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        {breadcrumb}
        {outcome.kind === "ok" ? (
          <Link href={`/webhook-groups/${id}/edit`} prefetch={false} className={buttonClasses("secondary", { size: "sm" })} data-testid="group-edit">
            Edit…
          </Link>
        ) : null}
      </div>
      {asOf === "invalid" ? (
        <Notice tone="warning" testId="as-of-invalid">
          “As of” needs a date and time like 2026-11-20T14:02:00 (UTC); showing the group as it is now.
        </Notice>
      ) : null}
      {outcome.kind !== "ok" ? (
        <StateMessage failure={outcome} retryHref={`/webhook-groups/${id}`} />
      ) : (
        <GroupDetails
          group={withoutHeaderValues(outcome.item!)}
          budget={outcome.budget}
          freshness={outcome.freshness}
          eventNames={eventNames}
          status={
            <Suspense fallback={<div className="h-8 animate-pulse rounded-md bg-slate-100" aria-label="Loading the health findings" />}>
              <GroupFindings report={report!} groupId={id} />
            </Suspense>
          }
          history={
            <Suspense fallback={<div className="h-24 animate-pulse rounded-lg bg-slate-100" aria-label="Loading the history" />}>
              <GroupHistory groupId={id} history={history!} />
            </Suspense>
          }
        />
      )}
    </div>
  );
});
