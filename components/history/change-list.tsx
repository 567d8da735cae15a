import Link from "next/link";
import { UndoChangeButton } from "@/components/plans/undo-change-button";
import type { FeedEntry } from "@/lib/history/feed";
import { changeBadge, changeDiff, type BadgeKind, type ChangeDiff } from "@/lib/history/skim";
import { fieldLabel } from "@/lib/history/describe";
import { formatDate, formatDateTime, isoMinute } from "@/lib/time/format";
import { viewerZone } from "@/lib/time/viewer-zone";

/** The time of day, "14:05", in the zone. */
const clock = (at: Date, zone: string) => isoMinute(at, zone).slice(11);

/** The EMS's time of an edit: the time alone on the day it was seen, else with its day. */
function editTime(changedAt: Date, seenAt: Date, zone: string): string {
  return isoMinute(changedAt, zone).slice(0, 10) === isoMinute(seenAt, zone).slice(0, 10) ? clock(changedAt, zone) : formatDateTime(changedAt, zone);
}

const BADGE_TONE: Record<BadgeKind, string> = {
  added: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  removed: "bg-red-50 text-red-800 ring-red-200",
  enabled: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  disabled: "bg-amber-50 text-amber-900 ring-amber-200",
  url: "bg-violet-50 text-violet-800 ring-violet-200",
  headers: "bg-fuchsia-50 text-fuchsia-800 ring-fuchsia-200",
  events: "bg-sky-50 text-sky-800 ring-sky-200",
  name: "bg-slate-100 text-slate-800 ring-slate-200",
  moved: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  triggers: "bg-teal-50 text-teal-800 ring-teal-200",
  changed: "bg-slate-100 text-slate-800 ring-slate-200",
};

/** The change's before and after, the changed part marked (header values never: names only). */
function Diff({ diff }: { diff: ChangeDiff }) {
  if (diff.kind === "none") return null;
  const label = <span className="mr-1 text-slate-500">{fieldLabel(diff.field)}:</span>;
  if (diff.kind === "text") {
    const { prefix, removed, added, suffix } = diff.diff;
    return (
      <div className="min-w-0 space-y-0.5 font-mono text-xs" data-testid="change-diff">
        <p className="break-all text-slate-600">
          {label}
          <span aria-hidden className="mr-1 text-red-700">
            −
          </span>
          {prefix}
          <del className="rounded-sm bg-red-100 text-red-900">{removed}</del>
          {suffix}
        </p>
        <p className="break-all text-slate-800">
          <span className="invisible mr-1">{fieldLabel(diff.field)}:</span>
          <span aria-hidden className="mr-1 text-emerald-700">
            +
          </span>
          {prefix}
          <ins className="rounded-sm bg-emerald-100 text-emerald-900 no-underline">{added}</ins>
          {suffix}
        </p>
      </div>
    );
  }
  if (diff.kind === "items") {
    return (
      <p className="flex min-w-0 flex-wrap items-baseline gap-1 text-xs" data-testid="change-diff">
        {label}
        {diff.removed.map((item) => (
          <del key={`-${item}`} className="rounded-sm bg-red-100 px-1 text-red-900">
            {item}
          </del>
        ))}
        {diff.added.map((item) => (
          <ins key={`+${item}`} className="rounded-sm bg-emerald-100 px-1 text-emerald-900 no-underline">
            {item}
          </ins>
        ))}
      </p>
    );
  }
  return (
    <p className="min-w-0 break-words text-xs" data-testid="change-diff">
      {label}
      <del className="rounded-sm bg-red-100 px-1 text-red-900">{diff.before}</del> →{" "}
      <ins className="rounded-sm bg-emerald-100 px-1 text-emerald-900 no-underline">{diff.after}</ins>
    </p>
  );
}

/** The group as it was just after this change (change history's "as of"); events have no past page. */
export function asOfHref(entry: Pick<FeedEntry, "kind" | "recordId" | "groupId" | "seenAt">): string | null {
  const groupId = entry.kind === "group" ? entry.recordId : entry.kind === "webhook" ? entry.groupId : null;
  // "As of" reads whole seconds: the second after the change was seen, so the page includes it.
  const after = new Date(Math.ceil(entry.seenAt.getTime() / 1000) * 1000);
  return groupId === null ? null : `/webhook-groups/${groupId}?asOf=${after.toISOString().slice(0, 19)}`;
}

/** Where an entry's record lives in the portal: the group's page (a webhook: its card on it), the event's page. */
export function recordHref(entry: Pick<FeedEntry, "kind" | "recordId" | "groupId" | "change">): string | null {
  if (entry.kind === "event") return entry.change === "removed" ? null : `/events/${entry.recordId}`;
  if (entry.kind === "group") return entry.change === "removed" ? null : `/webhook-groups/${entry.recordId}`;
  return entry.groupId === null ? null : `/webhook-groups/${entry.groupId}${entry.change === "removed" ? "" : `#webhook-${entry.recordId}`}`;
}

/**
 * Changes, newest first, under a heading per day in the viewer's time zone: what changed in words,
 * who changed it and when (as the EMS says), and when the portal saw it. In UTC until the browser has
 * said its zone, and then the headings say "(UTC)".
 */
export async function ChangeList({ entries, showAccount, compact }: { entries: FeedEntry[]; showAccount?: boolean; compact?: boolean }) {
  const { zone, known } = await viewerZone();
  const days = new Map<string, FeedEntry[]>();
  for (const entry of entries) {
    const key = isoMinute(entry.seenAt, zone).slice(0, 10);
    days.set(key, [...(days.get(key) ?? []), entry]);
  }
  return (
    <div className="space-y-6" data-testid="change-list">
      {[...days].map(([key, list]) => (
        <section key={key} aria-labelledby={`day-${key}`}>
          <h3 id={`day-${key}`} className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
            {formatDate(`${key}T12:00:00Z`, "UTC")}
            {known ? null : " (UTC)"}
          </h3>
          <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {list.map((entry) => {
              const href = recordHref(entry);
              const badge = changeBadge(entry);
              const asOf = asOfHref(entry);
              const diff = changeDiff(entry);
              // The diff says what changed; a change it cannot show (headers reordered) keeps its sentence.
              const shownDiff = diff.kind === "text" || diff.kind === "values" || (diff.kind === "items" && diff.added.length + diff.removed.length > 0);
              return (
                <li
                  key={entry.id}
                  className={`grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-3 gap-y-1 ${compact ? "px-3 py-2" : "px-3 py-2.5"}`}
                  data-testid="change-entry"
                >
                  <span
                    className={`h-fit w-fit rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${BADGE_TONE[badge.kind]}`}
                    data-testid="change-badge"
                    data-kind={badge.kind}
                  >
                    {badge.label}
                  </span>
                  <div className="min-w-0 space-y-1">
                    <p className="break-words text-sm text-slate-900">
                      {href ? (
                        <Link href={href} prefetch={false} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                          {entry.subject}
                        </Link>
                      ) : (
                        <span className="font-medium">{entry.subject}</span>
                      )}
                      {shownDiff ? null : <>: {entry.what}</>}
                    </p>
                    {shownDiff ? <Diff diff={diff} /> : null}
                    <p className="break-words text-xs text-slate-600">
                      {entry.changedBy ? (
                        entry.changedBy.endsWith(" through EMS Portal") ? (
                          <>by {entry.changedBy}</>
                        ) : (
                          <>by {entry.changedBy} in the EMS</>
                        )
                      ) : (
                        <>who: the EMS does not say</>
                      )}
                      {entry.changedAt ? <>, {editTime(entry.changedAt, entry.seenAt, zone)}</> : null}
                      {"; "}seen{" "}
                      <time dateTime={entry.seenAt.toISOString()} title={entry.seenAt.toISOString()}>
                        {clock(entry.seenAt, zone)}
                        {known ? null : " UTC"}
                      </time>
                      {showAccount ? <> · {entry.accountLabel}</> : null}
                      {asOf ? (
                        <>
                          {" · "}
                          <Link href={asOf} prefetch={false} className="text-brand-700 underline-offset-2 hover:underline" data-testid="change-as-of">
                            as of then
                          </Link>
                        </>
                      ) : null}
                      {entry.kind !== "event" && (entry.change !== "changed" || entry.field) ? (
                        <>
                          {" · "}
                          <UndoChangeButton changeId={entry.id} />
                        </>
                      ) : null}
                    </p>
                  </div>
                </li>
              );
            })}
          </ol>
        </section>
      ))}
    </div>
  );
}
