import Link from "next/link";
import type { DriftFindingView, DriftList } from "@/lib/plans/drift-findings";
import { plural } from "@/lib/text/plural";
import { Time } from "@/components/ui/time";
import { AcceptDriftButton, ReapplyDriftButton } from "./drift-buttons";

/**
 * Drift from applied plans (issue 37 §3): each finding as a sentence (names only, never a value),
 * when the EMS says it changed (or when a sync saw it), and its answers. An accepted one says who
 * accepted it and when. Shared by Health (every plan's) and a plan's page (its own).
 */
function DriftRow({ finding, canAccept, showPlan }: { finding: DriftFindingView; canAccept: boolean; showPlan: boolean }) {
  const accepted = finding.status === "accepted";
  return (
    <li className="space-y-1.5 px-3 py-2.5 text-sm" data-testid="drift-finding" data-status={finding.status}>
      <p className={`break-words ${accepted ? "text-slate-600" : "text-slate-900"}`}>{finding.sentence}</p>
      <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
        <span>
          {finding.changedAt ? "Changed " : "Seen by a sync "}
          <Time value={finding.changedAt ?? finding.seenAt} />
        </span>
        {showPlan ? (
          <Link href={`/plans/${finding.planId}`} className="text-brand-700 underline" prefetch={false}>
            Open the plan
          </Link>
        ) : null}
        {finding.reapplyPlanId ? (
          <Link href={`/plans/${finding.reapplyPlanId}`} className="text-brand-700 underline" prefetch={false} data-testid="drift-reapply-plan">
            Re-apply drafted
          </Link>
        ) : null}
      </p>
      {accepted ? (
        <p className="text-xs text-slate-600" data-testid="drift-accepted-by">
          Accepted by {finding.acceptedByEmail ?? "a former member"}
          {finding.acceptedAt ? (
            <>
              , <Time value={finding.acceptedAt} />
            </>
          ) : null}
        </p>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          {finding.field !== "" ? <ReapplyDriftButton findingId={finding.id} /> : null}
          {canAccept ? <AcceptDriftButton findingId={finding.id} /> : null}
        </div>
      )}
    </li>
  );
}

export function DriftSection({ drift, canAccept, showPlan, headingLevel = 2 }: { drift: DriftList; canAccept: boolean; showPlan: boolean; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const more = drift.open + drift.accepted - drift.findings.length;
  return (
    <section aria-labelledby="drift-heading" className="space-y-2" data-testid="drift-section">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <Heading id="drift-heading" className="text-lg font-semibold text-slate-900">
          Drift from applied plans
        </Heading>
        <span className="text-sm text-slate-600" data-testid="drift-counts">
          {drift.open === 0 ? "None open" : `${plural(drift.open, "open finding")}`}
          {drift.accepted > 0 ? ` · ${drift.accepted.toLocaleString("en-US")} accepted` : ""}
        </span>
      </div>
      {drift.findings.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600" data-testid="drift-empty">
          No record has left what {showPlan ? "an applied plan" : "this plan"} set. Change history compares them after each sync.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {drift.findings.map((finding) => (
            <DriftRow key={finding.id} finding={finding} canAccept={canAccept} showPlan={showPlan} />
          ))}
        </ul>
      )}
      {more > 0 ? <p className="text-sm text-slate-600">and {plural(more, "older finding")} not shown.</p> : null}
    </section>
  );
}
