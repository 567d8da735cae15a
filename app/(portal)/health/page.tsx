import type { Metadata } from "next";
import { requireActor } from "@/lib/auth/session";
import { loadHealthReport, type HealthReport } from "@/lib/health/report";
import { ruleById } from "@/lib/health/rules";
import { SEVERITY_ORDER, type Finding, type HealthRule, type Severity } from "@/lib/health/types";
import { WHOLE_RULE } from "@/lib/health/mutes";
import { canManageTeam } from "@/lib/access/roles";
import { StateMessage } from "@/components/listing/state-message";
import { SetupFreshness } from "@/components/setup/setup-freshness";
import { SeverityBadge } from "@/components/health/severity-badge";
import { SubjectLinks } from "@/components/health/subject-links";
import { MuteForm, UnmuteButton } from "@/components/health/mute-form";
import { buttonClasses } from "@/components/ui/button";

export const metadata: Metadata = { title: "Health" };

const SECTION_TITLES: Record<Severity, string> = { error: "Errors", warning: "Warnings", notice: "Notices" };
const utc = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** Findings of one severity, rule by rule, in the order the rules report them. */
function byRule(findings: readonly Finding[], severity: Severity): { rule: HealthRule; findings: Finding[] }[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    if (finding.severity !== severity) continue;
    groups.set(finding.ruleId, [...(groups.get(finding.ruleId) ?? []), finding]);
  }
  return [...groups].flatMap(([ruleId, list]) => {
    const rule = ruleById(ruleId);
    return rule ? [{ rule, findings: list }] : [];
  });
}

function RuleSection({ rule, findings, canMute }: { rule: HealthRule; findings: Finding[]; canMute: boolean }) {
  return (
    <article className="rounded-lg border border-slate-200 bg-white shadow-sm" data-testid="health-rule" data-rule={rule.id} aria-labelledby={`rule-${rule.id}`}>
      <header className="space-y-1 border-b border-slate-100 p-4">
        <div className="flex flex-wrap items-center gap-2">
          <SeverityBadge severity={rule.severity} />
          <h3 id={`rule-${rule.id}`} className="min-w-0 break-words font-semibold text-slate-900">
            {rule.title}
          </h3>
          <span className="text-sm text-slate-600">({findings.length})</span>
        </div>
        <p className="text-sm text-slate-700">{rule.why}</p>
        <p className="text-sm text-slate-700">
          <span className="font-medium">How to fix:</span> {rule.fix}
        </p>
        {canMute ? <MuteForm ruleId={rule.id} findingKey={WHOLE_RULE} label="Mute this check…" /> : null}
      </header>
      <ul className="divide-y divide-slate-100">
        {findings.map((finding) => (
          <li key={finding.key} className="space-y-1 p-4" data-testid="finding">
            <p className="break-words text-sm text-slate-900">{finding.message}</p>
            <SubjectLinks subjects={finding.subjects} />
            {canMute ? <MuteForm ruleId={rule.id} findingKey={finding.key} label="Mute…" /> : null}
          </li>
        ))}
      </ul>
    </article>
  );
}

function MutedList({ report, canMute }: { report: HealthReport; canMute: boolean }) {
  if (report.mutes.length === 0) return null;
  const hiddenBy = new Map<string, number>();
  for (const { mute } of report.muted) hiddenBy.set(mute.id, (hiddenBy.get(mute.id) ?? 0) + 1);
  const messages = new Map(report.muted.map(({ finding, mute }) => [mute.id, finding.message]));
  return (
    <section aria-labelledby="muted-heading" className="space-y-2">
      <h2 id="muted-heading" className="text-lg font-semibold text-slate-900">
        Muted <span className="text-sm font-normal text-slate-600">({report.mutes.length})</span>
      </h2>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="muted-list">
        {report.mutes.map((mute) => {
          const rule = ruleById(mute.ruleId);
          const what =
            mute.findingKey === WHOLE_RULE
              ? `Every finding of “${rule?.title ?? mute.ruleId}”`
              : (messages.get(mute.id) ?? `A finding of “${rule?.title ?? mute.ruleId}” that is no longer present`);
          return (
            <li key={mute.id} className="flex flex-col gap-1 p-4 text-sm sm:flex-row sm:items-start sm:justify-between" data-testid="muted-item">
              <div className="min-w-0 space-y-1">
                <p className="break-words text-slate-900">{what}</p>
                <p className="break-words text-slate-600">
                  “{mute.reason}” — {mute.createdByEmail}, {utc.format(mute.createdAt)} UTC
                  {mute.findingKey === WHOLE_RULE ? ` · hides ${hiddenBy.get(mute.id) ?? 0} now` : ""}
                </p>
              </div>
              {canMute ? <UnmuteButton muteId={mute.id} /> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * What is wrong with the account's webhook setup, by severity and check, each finding linking to
 * its records; owners and admins mute a finding or a check with a reason. Built from the shared
 * setup (lib/setup/load.ts): no call of its own while the team's copy is fresh.
 */
export default async function HealthPage() {
  const actor = await requireActor();
  const report = await loadHealthReport(actor);
  const canMute = canManageTeam(actor.role);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Health</h1>
          <p className="text-sm text-slate-600">What is wrong with your webhook setup, and how to fix it.</p>
        </div>
        {report.kind === "ok" ? (
          <a href="/api/health-findings" className={buttonClasses("secondary")} download data-testid="health-export">
            Export CSV
          </a>
        ) : null}
      </div>
      {report.kind !== "ok" ? (
        <StateMessage failure={report} retryHref="/health" />
      ) : (
        <>
          <SetupFreshness snapshot={report.snapshot} freshness={report.freshness} budget={report.budget} returnTo="/health" />
          <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="health-counts">
            <span className="font-medium text-red-800">
              {report.counts.errors} {report.counts.errors === 1 ? "error" : "errors"}
            </span>
            <span className="font-medium text-amber-800">
              {report.counts.warnings} {report.counts.warnings === 1 ? "warning" : "warnings"}
            </span>
            <span className="font-medium text-sky-800">
              {report.counts.notices} {report.counts.notices === 1 ? "notice" : "notices"}
            </span>
            {report.muted.length > 0 ? <span className="text-slate-600">{report.muted.length} muted</span> : null}
          </p>
          {report.active.length === 0 ? (
            <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-6 text-center" data-testid="health-clear">
              <p className="font-semibold text-emerald-900">No problems found</p>
              <p className="mt-1 text-sm text-emerald-800">Every check passed{report.muted.length > 0 ? " (muted findings aside)" : ""}.</p>
            </div>
          ) : (
            SEVERITY_ORDER.map((severity) => {
              const rules = byRule(report.active, severity);
              if (rules.length === 0) return null;
              return (
                <section key={severity} aria-labelledby={`severity-${severity}`} className="space-y-3">
                  <h2 id={`severity-${severity}`} className="text-lg font-semibold text-slate-900">
                    {SECTION_TITLES[severity]}
                  </h2>
                  {rules.map(({ rule, findings }) => (
                    <RuleSection key={rule.id} rule={rule} findings={findings} canMute={canMute} />
                  ))}
                </section>
              );
            })
          )}
          <MutedList report={report} canMute={canMute} />
        </>
      )}
    </div>
  );
}
