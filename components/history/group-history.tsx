import Link from "next/link";
import type { FeedEntry } from "@/lib/history/feed";
import { GROUP_HISTORY_DAYS, type GroupHistoryData } from "@/lib/history/group-history";
import { buttonClasses } from "@/components/ui/button";
import { ChangeList } from "./change-list";

/** The "as of" field's value (UTC), 24-hour ISO to the minute: "2026-11-20T14:02" (the page reads it as the end of that minute). */
export function asOfValue(date: Date): string {
  return date.toISOString().slice(0, 16);
}

/**
 * "As of" a past time: a GET form (works without script); the time is read as UTC. A text field in
 * 24-hour ISO form ("2026-11-27T14:05"), the form the URL takes, not the browser's 12-hour control.
 */
export function AsOfForm({ groupId, value }: { groupId: number; value?: string }) {
  return (
    <form method="get" action={`/webhook-groups/${groupId}`} className="flex flex-wrap items-end gap-2" aria-label="See the group as it was" data-testid="as-of-form">
      <label className="text-sm font-medium text-slate-700">
        As of (UTC)
        <input
          type="text"
          name="asOf"
          pattern="\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?"
          placeholder="2026-11-27T14:05"
          title="A date and 24-hour time in UTC, e.g. 2026-11-27T14:05"
          aria-describedby={`as-of-hint-${groupId}`}
          spellCheck={false}
          autoComplete="off"
          defaultValue={value}
          required
          className="mt-1 block w-48 rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-sm"
        />
      </label>
      <button type="submit" className={buttonClasses("secondary")}>
        Show
      </button>
      <p id={`as-of-hint-${groupId}`} className="basis-full text-xs text-slate-500">
        A date and 24-hour time in UTC, e.g. 2026-11-27T14:05.
      </p>
    </form>
  );
}

/**
 * A group's history on its page: the last GROUP_HISTORY_DAYS of changes to it and its webhooks, from the
 * team's tracker of the account this person's credential reads, and the "as of" form. The page's
 * data function (lib/history/group-history.ts) loads it; this streams in when it comes.
 */
export async function GroupHistory({ groupId, history }: { groupId: number; history: Promise<GroupHistoryData> }) {
  const data = await history;
  return (
    <section aria-labelledby="history-heading" className="space-y-3" data-testid="group-history">
      <h2 id="history-heading" className="text-lg font-semibold text-slate-900">
        History
      </h2>
      {!data.tracked ? (
        <p className="text-sm text-slate-600">
          Changes to this group are not tracked. Owners and admins can turn on change history in{" "}
          <Link href="/settings/tracking" className="text-brand-700 underline">
            Settings
          </Link>
          .
        </p>
      ) : (
        <Timeline entries={data.entries} groupId={groupId} />
      )}
    </section>
  );
}

function Timeline({ entries, groupId }: { entries: FeedEntry[]; groupId: number }) {
  return (
    <>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="group-history-empty">
          No changes to this group or its webhooks in the last {GROUP_HISTORY_DAYS} days.
        </p>
      ) : (
        <ChangeList entries={entries} compact />
      )}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <AsOfForm groupId={groupId} />
        <Link href={`/changes?group=${groupId}`} className="text-sm text-brand-700 underline">
          Every change to this group
        </Link>
      </div>
    </>
  );
}
