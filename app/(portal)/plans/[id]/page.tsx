import type { Metadata } from "next";
import Link from "next/link";
import { OperationDiff } from "@/components/plans/operation-diff";
import { PlanControls } from "@/components/plans/plan-controls";
import { PlanProgressView } from "@/components/plans/plan-progress";
import { PlanPager } from "@/components/plans/plan-pager";
import { PlanStatusPill, planStatusLabel } from "@/components/plans/plan-status";
import { Notice } from "@/components/ui/notice";
import { Time } from "@/components/ui/time";
import { authedRecordPage } from "@/lib/actions/page";
import { durationInWords, LARGE_PLAN_OPERATIONS } from "@/lib/plans/cost";
import { isAwaitingApproval, isBeforeApply, planPhase, PlanStatus } from "@/lib/plans/lifecycle";
import { loadPlanPage, OPERATIONS_PER_PAGE, type PlanPageData } from "@/lib/plans/page";
import { triggerLabel } from "@/lib/setup/triggers";
import { pageNumberParam } from "@/lib/page-search-params";
import { parsePlanId } from "@/lib/plans/plan-id";
import { plural } from "@/lib/text/plural";
import { canManageTeam } from "@/lib/access/roles";
import { listDrift } from "@/lib/plans/drift-findings";
import { DriftSection } from "@/components/plans/drift-list";

export const metadata: Metadata = { title: "Change plan" };

const at = (date: Date) => <Time value={date} />;
function Impact({ plan }: { plan: PlanPageData }) {
  if (plan.impactUnavailable) return <p className="text-sm text-slate-600">The impact cannot be worked out now: {plan.impactUnavailable}</p>;
  if (!plan.impact) return null;
  const { impact } = plan;
  return (
    <div className="space-y-2 text-sm" data-testid="plan-impact">
      {impact.summary.map((sentence) => (
        <p key={sentence} className={sentence.includes("loses") ? "font-medium text-amber-900" : "text-slate-800"}>
          {sentence}
        </p>
      ))}
      {impact.fixed.length > 0 ? (
        <details>
          <summary className="cursor-pointer text-emerald-800">Fixes {plural(impact.fixed.length, "finding")}</summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700">
            {impact.fixed.slice(0, 20).map((finding) => (
              <li key={`${finding.ruleId}:${finding.key}`}>{finding.message}</li>
            ))}
            {impact.fixed.length > 20 ? <li>and {plural(impact.fixed.length - 20, "more")}</li> : null}
          </ul>
        </details>
      ) : null}
      {impact.added.length > 0 ? (
        <details open>
          <summary className="cursor-pointer text-red-800">Adds {plural(impact.added.length, "finding")}</summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700">
            {impact.added.slice(0, 20).map((finding) => (
              <li key={`${finding.ruleId}:${finding.key}`}>{finding.message}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {impact.coverageLost.length > 0 ? (
        <details open={impact.coverageLost.some((change) => change.live)}>
          <summary className="cursor-pointer text-amber-900">Coverage lost in {plural(impact.coverageLost.length, "event trigger")}</summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-700">
            {impact.coverageLost.slice(0, 20).map((change) => (
              <li key={`${change.eventId}:${change.trigger}`}>
                {change.eventName}
                {change.live ? " (live)" : ""}: {triggerLabel(change.trigger).toLowerCase()}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {impact.coverageGained.length > 0 ? (
        <p className="text-emerald-800">Covers {plural(impact.coverageGained.length, "event trigger")} that had no healthy webhook.</p>
      ) : null}
    </div>
  );
}

/**
 * A change plan (issue 27 §2): what it will do, in words and side by side, grouped by group; its
 * impact on Health and Coverage; what it costs; who drafted, approved and applied it; and live
 * progress while it runs. Nothing here shows a header value.
 */
export default authedRecordPage(parsePlanId, async ({ actor, id, search }) => {
  // loadPlanPage checks the plan is the team's (a 404 otherwise); the drift list reads only the team's rows.
  const [plan, drift] = await Promise.all([loadPlanPage(actor, id, { page: pageNumberParam(search) }), listDrift(actor, { planId: id })]);
  const phase = planPhase(plan.status, plan.appliedBy !== null);
  const started = phase === "under-way";
  const pager = { planId: plan.id, page: plan.page, pageCount: plan.pageCount, perPage: OPERATIONS_PER_PAGE, total: plan.operationCount, anchor: "changes" };
  // A person named again in the byline (one who drafted, approved and applied) is named by name only.
  const named = new Set<string>();
  const person = (label: string) => {
    if (!named.has(label)) {
      named.add(label);
      return label;
    }
    return label.replace(/\s\([^()]*\)$/, "");
  };
  const author = person(plan.author ?? "a former member");
  const approver = plan.approvedBy ? person(plan.approvedBy) : null;
  const applier = plan.appliedBy ? person(plan.appliedBy) : null;
  const showStates = phase !== "review";
  const warned = plan.sections.reduce((sum, section) => sum + section.steps.filter((step) => step.diff.warnings.length > 0).length, 0);
  return (
    <div className="space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/plans" className="text-brand-700 underline">
          Plans
        </Link>{" "}
        / {plan.title}
      </nav>
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h1 className="min-w-0 text-2xl font-semibold break-words">{plan.title}</h1>
          <PlanStatusPill status={plan.shownStatus} />
        </div>
        <p className="text-sm text-slate-600">
          {plural(plan.operationCount, "change")} · drafted by {author} on {at(plan.createdAt)}
          {approver && plan.approvedAt ? (
            <>
              {" "}
              · approved by {approver} on {at(plan.approvedAt)}
            </>
          ) : (
            ""
          )}
          {applier ? (
            <>
              {" "}
              · {plan.status === PlanStatus.applied ? "applied" : "started"} by {applier}
              {plan.appliedAt ? <> on {at(plan.appliedAt)}</> : ""}
            </>
          ) : (
            ""
          )}
        </p>
        {plan.revertsPlan ? (
          <p className="text-sm">
            Undoes{" "}
            <Link href={`/plans/${plan.revertsPlan.id}`} className="text-brand-700 underline">
              {plan.revertsPlan.title}
            </Link>
          </p>
        ) : null}
        {plan.undoneBy ? (
          <p className="text-sm">
            Undone by{" "}
            <Link href={`/plans/${plan.undoneBy.id}`} className="text-brand-700 underline">
              {plan.undoneBy.title}
            </Link>{" "}
            ({planStatusLabel(plan.undoneBy.status).toLowerCase()})
          </p>
        ) : null}
      </header>
      {drift.findings.length > 0 || plan.status === PlanStatus.applied ? <DriftSection drift={drift} canAccept={canManageTeam(actor.role)} showPlan={false} /> : null}

      {plan.draftedFor ? (
        <Notice tone="info" title="A drafted fix" testId="plan-drafted-fix">
          The team&apos;s policy for “{plan.draftedFor}” drafts its fix after each sync: this plan covers every new finding of that check. Nothing is sent until an owner
          or admin approves and applies it; a newer finding replaces it with a new draft while it waits.
        </Notice>
      ) : null}
      {plan.status === PlanStatus.rejected ? (
        <Notice tone="error" title={`Rejected by ${plan.rejectedBy ?? "an owner or admin"}`}>
          {plan.rejectReason}
        </Notice>
      ) : null}
      {plan.stopReason ? (
        <Notice tone={plan.status === PlanStatus.cancelled ? "info" : "warning"} title={planStatusLabel(plan.status)} testId="plan-stop-reason">
          {plan.stopReason}
          {plan.status === PlanStatus.conflict ? " “Plan the rest again” drafts what is left against the record as it is now, for a fresh look and review." : ""}
        </Notice>
      ) : null}
      {plan.cancelRequested && plan.status === PlanStatus.applying ? <Notice tone="info">Stopping after the step under way.</Notice> : null}
      {warned > 0 && isBeforeApply(plan.status) ? (
        <Notice tone="warning" title="Check where deliveries go" testId="plan-delivery-warnings">
          {warned === 1 ? "One change below sends" : `${warned} changes below send`} a webhook&apos;s deliveries, and the credentials in its headers, somewhere new or
          somewhere to look at twice: each says what under it.
        </Notice>
      ) : null}
      {plan.awaitingApplier && !plan.cancelRequested ? (
        <Notice tone="info" title="Resuming on another instance" testId="plan-resuming">
          The server that was applying this plan stopped. Another one takes it up within about a minute, from the step it reached; a change it may have sent already is
          looked for in the EMS first, never sent twice.
        </Notice>
      ) : null}
      {plan.operationCount > LARGE_PLAN_OPERATIONS && isAwaitingApproval(plan.status) ? (
        <Notice tone="warning" title={`A large plan: more than ${LARGE_PLAN_OPERATIONS.toLocaleString("en-US")} changes`} testId="plan-large">
          It makes {plural(plan.operationCount, "change")}: {plural(plan.cost.credits, "credit")} of the API budget, {durationInWords(plan.cost.seconds)} at the current
          budget
          {plan.cost.windowsWaited > 0 ? `, waiting for ${plural(plan.cost.windowsWaited, "new rate-limit window")}` : ""}.
        </Notice>
      ) : null}

      <section className="grid grid-cols-1 gap-3 lg:grid-cols-3" aria-label="Summary">
        <div className="rounded-lg border border-slate-200 bg-white p-4 lg:col-span-2">
          <h2 className="mb-2 text-sm font-semibold text-slate-900">{showStates ? "Progress" : "Impact"}</h2>
          {showStates ? (
            <PlanProgressView
              planId={plan.id}
              live={started}
              initial={{ status: plan.status, operationCount: plan.operationCount, counts: plan.counts, current: plan.current }}
            />
          ) : (
            <Impact plan={plan} />
          )}
        </div>
        {/* What is left to send: nothing to say once the plan has ended. */}
        {plan.cost.credits > 0 ? (
          <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid="plan-cost">
            <h2 className="mb-2 text-sm font-semibold text-slate-900">{started ? "Left to send" : "Cost"}</h2>
            <p className="text-sm text-slate-800">
              {plural(plan.cost.credits, "credit")} · {durationInWords(plan.cost.seconds)}
            </p>
            <p className="mt-1 text-xs text-slate-500">
              Each change reads its record first (1 credit) and then writes it (1). Plans wait for the next window rather than use the credits kept for page views.
            </p>
            {/* Who approves: worth saying only until someone has. */}
            {isAwaitingApproval(plan.status) ? (
              <p className="mt-2 text-xs text-slate-500">
                {plan.reviewRequired ? "Needs the approval of an owner or admin other than its author." : "An owner or admin approves it (their own plans too)."}
              </p>
            ) : null}
          </div>
        ) : null}
      </section>

      <div className="flex flex-wrap items-center gap-2">
        <PlanControls planId={plan.id} can={plan.can} operations={plan.operationCount} credits={plan.cost.credits} duration={durationInWords(plan.cost.seconds)} />
        {plan.editHref ? (
          <Link href={plan.editHref} prefetch={false} className="text-sm text-brand-700 underline" data-testid="plan-edit">
            Edit the change
          </Link>
        ) : null}
      </div>
      {plan.approveBlockedBecause ? <p className="text-sm text-slate-600">{plan.approveBlockedBecause}</p> : null}

      <section aria-labelledby="operations-heading" className="scroll-mt-16 space-y-4" id="changes">
        <h2 id="operations-heading" className="text-lg font-semibold">
          Changes{plan.pageCount > 1 ? ` (page ${plan.page} of ${plan.pageCount})` : ""}
        </h2>
        {plan.pageCount > 1 ? <PlanPager {...pager} label="Pages of changes" /> : null}
        {plan.sections.map((section, index) => (
          <div key={`${index}:${section.groupId ?? "none"}`} className="space-y-2">
            <h3 className="text-sm font-semibold break-words text-slate-700">
              {section.groupId !== null && section.groupId > 0 ? (
                <Link href={`/webhook-groups/${section.groupId}`} className="hover:underline">
                  {section.groupName}
                </Link>
              ) : (
                section.groupName
              )}
              {section.continued ? <span className="font-normal text-slate-500"> (continued)</span> : null}
            </h3>
            <ol className="space-y-2">
              {section.steps.map((step) => (
                <OperationDiff key={step.position} step={step} showState={showStates} />
              ))}
            </ol>
          </div>
        ))}
        {plan.pageCount > 1 ? <PlanPager {...pager} label="Pages of changes, below them" /> : null}
      </section>
    </div>
  );
});
