import type { Metadata } from "next";
import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { loadHealthView, type HealthView } from "@/lib/health/view";
import { ruleById } from "@/lib/health/rules";
import { WHOLE_RULE, type HealthMuteRecord } from "@/lib/health/mutes";
import { activeFilters, healthHref, healthPage, healthRows, parseHealthParams, type HealthFilters } from "@/lib/health/list";
import { canManageTeam } from "@/lib/access/roles";
import { formatCount } from "@/lib/listing/format";
import { StateMessage } from "@/components/listing/state-message";
import { SetupFreshness, SetupStatus } from "@/components/setup/setup-freshness";
import { UnmuteButton } from "@/components/health/mute-form";
import { RuleGroupView } from "@/components/health/health-list";
import { HealthFilterChips, HealthFilterForm, SeverityChips } from "@/components/health/health-filters";
import { HealthBadgeSync } from "@/components/health/badge-sync";
import { buttonClasses } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Time } from "@/components/ui/time";
import { plural } from "@/lib/text/plural";
import { listDrift } from "@/lib/plans/drift-findings";
import { DriftSection } from "@/components/plans/drift-list";

export const metadata: Metadata = { title: "Health" };

/** Every mute of the team (a whole check, or a finding that may be gone), collapsed under the list. */
function MutesList({ report, canMute }: { report: HealthView; canMute: boolean }) {
  if (report.mutes.length === 0) return null;
  const hiddenBy = new Map<string, number>();
  for (const { mute } of report.muted) hiddenBy.set(mute.id, (hiddenBy.get(mute.id) ?? 0) + 1);
  const messages = new Map(report.muted.map(({ finding, mute }) => [mute.id, finding.message]));
  return (
    <details className="rounded-lg border border-slate-200 bg-white" data-testid="mutes">
      <summary className="cursor-pointer px-3 py-2 text-sm font-semibold text-slate-900">
        Mutes{" "}
        <span className="font-normal text-slate-600">
          ({formatCount(report.mutes.length)}; they hide {formatCount(report.muted.length)} findings)
        </span>
      </summary>
      <ul className="divide-y divide-slate-100 border-t border-slate-100" data-testid="muted-list">
        {report.mutes.map((mute: HealthMuteRecord) => {
          const rule = ruleById(mute.ruleId);
          const what =
            mute.findingKey === WHOLE_RULE
              ? `Every finding of “${rule?.title ?? mute.ruleId}”`
              : (messages.get(mute.id) ?? `A finding of “${rule?.title ?? mute.ruleId}” that is no longer present`);
          return (
            <li key={mute.id} className="flex flex-col gap-1 px-3 py-2 text-sm sm:flex-row sm:items-start sm:justify-between" data-testid="muted-item">
              <div className="min-w-0 space-y-0.5">
                <p className="break-words text-slate-900">{what}</p>
                <p className="break-words text-xs text-slate-600">
                  “{mute.reason}” — {mute.createdByEmail}, <Time value={mute.createdAt} />
                  {mute.findingKey === WHOLE_RULE ? ` · hides ${hiddenBy.get(mute.id) ?? 0} now` : ""}
                </p>
              </div>
              {mute.fromPolicy ? (
                <Link href="/settings#check-policies" prefetch={false} className="text-sm whitespace-nowrap text-brand-700 hover:underline">
                  Change in Settings
                </Link>
              ) : canMute ? (
                <UnmuteButton muteId={mute.id} />
              ) : null}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

function Pager({ filters, page, pageCount, from, to, total }: { filters: HealthFilters; page: number; pageCount: number; from: number; to: number; total: number }) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages of findings" className="flex flex-wrap items-center justify-between gap-2 text-sm" data-testid="health-pager">
      <span className="text-slate-600">
        {formatCount(from)}–{formatCount(to)} of {formatCount(total)} · page {page} of {pageCount}
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link href={healthHref(filters, { page: page - 1 })} prefetch={false} rel="prev" className={buttonClasses("secondary", { size: "sm" })}>
            Previous
          </Link>
        ) : null}
        {page < pageCount ? (
          <Link href={healthHref(filters, { page: page + 1 })} prefetch={false} rel="next" className={buttonClasses("secondary", { size: "sm" })}>
            Next
          </Link>
        ) : null}
      </span>
    </nav>
  );
}

function HealthBody({ report, filters, canMute, badgeShown }: { report: HealthView; filters: HealthFilters; canMute: boolean; badgeShown: number | null }) {
  const rows = healthRows(report.active, report.muted, report.hosts);
  const page = healthPage(rows, filters);
  const filtered = activeFilters(filters).length > 0;
  return (
    <>
      <HealthBadgeSync shown={badgeShown} errors={report.counts.errors} />
      <SetupFreshness setup={report.setup} freshness={report.freshness} budget={report.budget} returnTo={healthHref(filters)} status={false} updating={report.updating} />
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="health-counts">
        <span className="font-medium text-red-800" data-testid="health-error-count">
          {plural(report.counts.errors, "error")}
        </span>
        <span className="font-medium text-amber-800">{plural(report.counts.warnings, "warning")}</span>
        <span className="font-medium text-sky-800">{plural(report.counts.notices, "notice")}</span>
        {report.muted.length > 0 ? <span className="text-slate-600">{formatCount(report.muted.length)} muted</span> : null}
        <span className="text-slate-500">in the whole account</span>
      </p>
      {report.active.length === 0 && report.muted.length === 0 ? (
        <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-6 text-center" data-testid="health-clear">
          <p className="font-semibold text-emerald-900">No problems found</p>
          <p className="mt-1 text-sm text-emerald-800">Every check passed.</p>
        </div>
      ) : (
        <section aria-labelledby="findings-heading" className="space-y-3">
          <h2 id="findings-heading" className="sr-only">
            Findings
          </h2>
          <HealthFilterForm filters={filters} byRule={page.byRule} />
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <SeverityChips filters={filters} counts={page.bySeverity} />
            <HealthFilterChips filters={filters} />
          </div>
          <p className="text-sm text-slate-600" aria-live="polite" data-testid="health-shown">
            {page.total === 0
              ? "No finding matches these filters."
              : `${plural(page.total, "finding")}${filtered ? " match" : ""}${page.pageCount > 1 ? `, ${formatCount(page.from)}–${formatCount(page.to)} shown` : ""}.`}
          </p>
          {page.total === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600" data-testid="health-empty">
              {report.active.length === 0 ? "Every check passed (muted findings aside). " : null}
              <Link href="/health" className="text-brand-700 underline">
                Show every finding
              </Link>
            </div>
          ) : (
            <div className="space-y-3" data-testid="health-list">
              {page.groups.map((group) => (
                <RuleGroupView
                  key={`${group.ruleId}-${group.offset}`}
                  group={group}
                  canMute={canMute}
                  ruleFilterHref={healthHref(filters, { rule: group.ruleId })}
                  groupFilterHref={(groupId) => healthHref(filters, { group: groupId })}
                />
              ))}
            </div>
          )}
          <Pager filters={filters} {...page} />
        </section>
      )}
      <MutesList report={report} canMute={canMute} />
    </>
  );
}

/**
 * What is wrong with the account's webhook setup: one row per finding, grouped by check, filtered
 * and paged by the URL (lib/health/list.ts), each finding linking to its record; owners and admins
 * mute a finding or a check with a reason. Built from the findings stored per setup
 * (lib/health/view.ts), computed from the shared setup (lib/setup/load.ts) only when it changed: no
 * call of its own while the team's copy is fresh.
 */
export default async function HealthPage(props: PageProps<"/health">) {
  const actor = await requireActor();
  const filters = parseHealthParams(await props.searchParams);
  const badgeShown = actor.healthCounts?.errors ?? null;
  // Drift from applied plans is the team's own record (the database), shown whatever the EMS answers.
  const [report, drift] = await Promise.all([loadHealthView(actor), listDrift(actor)]);
  const canMute = canManageTeam(actor.role);
  const driftFirst = drift.findings.length > 0;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Health</h1>
          <p className="text-sm text-slate-600">What is wrong with your webhook setup, and how to fix it.</p>
        </div>
        {report.kind === "ok" ? (
          <div className="flex flex-wrap items-center gap-2">
            <a href="/api/health-findings" className={buttonClasses("secondary", { size: "sm" })} download data-testid="health-export">
              Export CSV
            </a>
            <SetupStatus setup={report.setup} freshness={report.freshness} budget={report.budget} returnTo={healthHref(filters)} updating={report.updating} />
          </div>
        ) : null}
      </div>
      {filters.notices.map((notice) => (
        <Notice key={notice} tone="warning" testId="health-notice">
          {notice}
        </Notice>
      ))}
      {driftFirst ? <DriftSection drift={drift} canAccept={canMute} showPlan /> : null}
      {report.kind !== "ok" ? (
        <StateMessage failure={report} retryHref="/health" />
      ) : (
        <HealthBody report={report} filters={filters} canMute={canMute} badgeShown={badgeShown} />
      )}
      {driftFirst ? null : <DriftSection drift={drift} canAccept={canMute} showPlan />}
    </div>
  );
}
