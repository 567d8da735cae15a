import Link from "next/link";
import type { FeedEntry } from "@/lib/history/feed";

const day = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const time = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
const dayAndTime = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** The EMS's time of an edit: the time alone on the day it was seen, else with its day. */
function editTime(changedAt: Date, seenAt: Date): string {
  return changedAt.toISOString().slice(0, 10) === seenAt.toISOString().slice(0, 10) ? time.format(changedAt) : dayAndTime.format(changedAt);
}

const CHANGE_TONE: Record<FeedEntry["change"], string> = {
  added: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  removed: "bg-red-50 text-red-800 ring-red-200",
  changed: "bg-sky-50 text-sky-800 ring-sky-200",
};

/** Where an entry's record lives in the portal: the group's page (a webhook: its card on it), the event's page. */
export function recordHref(entry: Pick<FeedEntry, "kind" | "recordId" | "groupId" | "change">): string | null {
  if (entry.kind === "event") return entry.change === "removed" ? null : `/events/${entry.recordId}`;
  if (entry.kind === "group") return entry.change === "removed" ? null : `/webhook-groups/${entry.recordId}`;
  return entry.groupId === null ? null : `/webhook-groups/${entry.groupId}${entry.change === "removed" ? "" : `#webhook-${entry.recordId}`}`;
}

/**
 * Changes, newest first, under a heading per UTC day: what changed in words, who changed it and
 * when (as the EMS says), and when the portal saw it. Times are UTC, and say so.
 */
export function ChangeList({ entries, showAccount, compact }: { entries: FeedEntry[]; showAccount?: boolean; compact?: boolean }) {
  const days = new Map<string, FeedEntry[]>();
  for (const entry of entries) {
    const key = entry.seenAt.toISOString().slice(0, 10);
    days.set(key, [...(days.get(key) ?? []), entry]);
  }
  return (
    <div className="space-y-6" data-testid="change-list">
      {[...days].map(([key, list]) => (
        <section key={key} aria-labelledby={`day-${key}`}>
          <h3 id={`day-${key}`} className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
            {day.format(new Date(`${key}T00:00:00Z`))} (UTC)
          </h3>
          <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {list.map((entry) => {
              const href = recordHref(entry);
              return (
                <li key={entry.id} className={`flex flex-col gap-1 ${compact ? "p-3" : "p-4"} sm:flex-row sm:items-start sm:gap-3`} data-testid="change-entry">
                  <span className={`w-fit shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${CHANGE_TONE[entry.change]}`}>{entry.change}</span>
                  <div className="min-w-0 flex-1 space-y-0.5">
                    <p className="break-words text-sm text-slate-900">
                      {href ? (
                        <Link href={href} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                          {entry.subject}
                        </Link>
                      ) : (
                        <span className="font-medium">{entry.subject}</span>
                      )}
                      : {entry.what}
                    </p>
                    <p className="break-words text-xs text-slate-600">
                      {entry.changedBy ? <>by {entry.changedBy} in the EMS</> : <>who: the EMS does not say</>}
                      {entry.changedAt ? <>, {editTime(entry.changedAt, entry.seenAt)}</> : null}
                      {"; "}seen <time dateTime={entry.seenAt.toISOString()}>{time.format(entry.seenAt)} UTC</time>
                      {showAccount ? <> · {entry.accountLabel}</> : null}
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
