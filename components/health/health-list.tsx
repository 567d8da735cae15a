import Link from "next/link";
import { ListFilter } from "lucide-react";
import type { HealthMuteRecord } from "@/lib/health/mutes";
import { WHOLE_RULE } from "@/lib/health/mutes";
import type { HealthRow, RuleGroup } from "@/lib/health/list";
import { ruleById } from "@/lib/health/rules";
import type { FindingSubject } from "@/lib/health/types";
import { formatCount } from "@/lib/listing/format";
import { checkListHref } from "@/lib/listing/href";
import { fixAllHref, fixHref } from "@/lib/plans/fixes";
import { MuteForm, UnmuteButton } from "./mute-form";
import { SeverityBadge } from "./severity-badge";
import { subjectHref } from "./subject-links";

const KIND_WORDS: Record<FindingSubject["kind"], string> = { group: "Group", webhook: "Webhook", event: "Event" };

/** The record a finding is mainly about (its first subject), linked, with the webhook's group under it. */
function RecordCell({ subjects, groupFilterHref }: { subjects: readonly FindingSubject[]; groupFilterHref: (groupId: number) => string }) {
  const subject = subjects[0];
  if (!subject) return <span className="text-slate-500">—</span>;
  const href = subjectHref(subject);
  const name = subject.name || `#${subject.id}`;
  const groupId = subject.kind === "group" ? subject.id : subject.groupId;
  return (
    <span className="finding-record">
      <span className="finding-kind">{KIND_WORDS[subject.kind]}</span>
      {href ? (
        <Link href={href} prefetch={false} className="finding-link" data-testid="finding-link">
          {name}
        </Link>
      ) : (
        <span className="min-w-0 truncate font-medium">{name}</span>
      )}
      {groupId ? (
        <Link
          href={groupFilterHref(groupId)}
          prefetch={false}
          className="finding-group-filter"
          title="Show only this group's findings"
          aria-label={`Only group ${groupId}'s findings`}
          data-testid="finding-group-filter"
        >
          {/* The filter icon the lists' "+ Filter" uses: a funnel, not a symbol to decode. */}
          <ListFilter aria-hidden className="size-3.5" />
        </Link>
      ) : null}
    </span>
  );
}

/**
 * One finding: severity, the record, why (the whole text, wrapped: a hover tooltip is out of reach for
 * touch and keyboard users), what to do.
 */
function FindingRow({ row, canMute, groupFilterHref }: { row: HealthRow<HealthMuteRecord>; canMute: boolean; groupFilterHref: (groupId: number) => string }) {
  const { finding, mute } = row;
  // A check whose fix is mechanical drafts it as a plan (lib/plans/fixes.ts): reviewed before anything changes.
  const fix = fixHref(finding);
  return (
    <li className="finding-row" data-testid="finding" data-muted={mute ? "true" : undefined}>
      <SeverityBadge severity={finding.severity} />
      <RecordCell subjects={finding.subjects} groupFilterHref={groupFilterHref} />
      <p className="finding-message" data-testid="finding-message">
        {finding.message}
        {mute ? <span className="ml-1 text-xs text-slate-500">(muted: “{mute.reason}”)</span> : null}
      </p>
      <div className="finding-actions">
        {fix && !mute ? (
          <Link href={fix} prefetch={false} className="finding-fix" data-testid="finding-fix">
            Fix…
          </Link>
        ) : null}
        {canMute ? (
          mute ? (
            mute.fromPolicy ? null : (
              <UnmuteButton muteId={mute.id} />
            )
          ) : (
            <MuteForm ruleId={finding.ruleId} findingKey={finding.key} label="Mute…" className="text-right" />
          )
        ) : null}
      </div>
    </li>
  );
}

/**
 * A rule's findings on this page, under a header that says the rule, its severity and how many
 * findings the filters keep; collapsible (native details, so keyboard and no-JS work), with why it
 * matters and how to fix it a click away.
 */
export function RuleGroupView({
  group,
  canMute,
  ruleFilterHref,
  groupFilterHref,
}: {
  group: RuleGroup<HealthMuteRecord>;
  canMute: boolean;
  ruleFilterHref: string;
  groupFilterHref: (groupId: number) => string;
}) {
  const rule = ruleById(group.ruleId);
  if (!rule) return null;
  const partial = group.rows.length < group.total;
  return (
    <details open className="group/rule rounded-lg border border-slate-200 bg-white" data-testid="health-rule" data-rule={rule.id}>
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-2 gap-y-1 rounded-t-lg bg-slate-50 px-3 py-2 [&::-webkit-details-marker]:hidden">
        <span aria-hidden className="text-xs text-slate-500 transition-transform group-open/rule:rotate-90">
          ▶
        </span>
        <SeverityBadge severity={rule.severity} />
        <h3 className="min-w-0 font-semibold text-slate-900">{rule.title}</h3>
        <span className="rounded-full bg-slate-200 px-2 text-xs font-medium text-slate-700" data-testid="rule-count">
          {formatCount(group.total)}
        </span>
        {partial ? (
          <span className="text-xs text-slate-500">
            {formatCount(group.offset + 1)}–{formatCount(group.offset + group.rows.length)} on this page
          </span>
        ) : null}
      </summary>
      <div className="flex flex-wrap items-start gap-x-4 gap-y-1 border-b border-slate-100 px-3 py-1.5 text-sm">
        <details className="w-full min-w-0 sm:w-auto sm:flex-1" data-testid="rule-details">
          <summary className="cursor-pointer text-slate-600 hover:text-slate-900">Why it matters and how to fix it</summary>
          <div className="mt-1 max-w-3xl space-y-1 pb-1 text-slate-700">
            <p>{rule.why}</p>
            <p>
              <span className="font-medium">How to fix:</span> {rule.fix}
            </p>
          </div>
        </details>
        <Link href={ruleFilterHref} prefetch={false} className="text-slate-600 underline decoration-dotted underline-offset-2 hover:text-slate-900">
          Only this check
        </Link>
        {/* The records the check finds, in their list (lib/listing-page/check-filter.ts). */}
        <Link
          href={checkListHref(rule.id)}
          prefetch={false}
          className="text-slate-600 underline decoration-dotted underline-offset-2 hover:text-slate-900"
          data-testid="rule-show-in-list"
        >
          Show in the list
        </Link>
        {fixAllHref(rule.id) && group.total > 1 ? (
          <Link href={fixAllHref(rule.id)!} prefetch={false} className="whitespace-nowrap text-brand-700 hover:underline" data-testid="rule-fix-all">
            Fix all {formatCount(group.total)}…
          </Link>
        ) : null}
        {canMute ? <MuteForm ruleId={rule.id} findingKey={WHOLE_RULE} label="Mute this check…" /> : null}
      </div>
      <ul className="divide-y divide-slate-100">
        {group.rows.map((row) => (
          <FindingRow key={`${row.finding.key}${row.mute ? "-muted" : ""}`} row={row} canMute={canMute} groupFilterHref={groupFilterHref} />
        ))}
      </ul>
    </details>
  );
}
