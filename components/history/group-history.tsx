import Link from "next/link";
import type { FeedEntry } from "@/lib/history/feed";
import { GROUP_HISTORY_DAYS, type GroupHistoryData } from "@/lib/history/group-history";
import { buttonClasses } from "@/components/ui/button";
import { ChangeList } from "./change-list";

/** The datetime-local value (UTC) of a date, to the second: "2026-11-20T14:02:11". */
export function asOfValue(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** "As of" a past time: a GET form (works without script); the time is read as UTC. */
export function AsOfForm({ groupId, value }: { groupId: number; value?: string }) {
  return (
    <form method="get" action={`/webhook-groups/${groupId}`} className="flex flex-wrap items-end gap-2" aria-label="See the group as it was" data-testid="as-of-form">
      <label className="text-sm font-medium text-slate-700">
        As of (UTC)
        <input
          type="datetime-local"
          name="asOf"
          step={1}
          defaultValue={value}
          required
          className="mt-1 block rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
        />
      </label>
      <button type="submit" className={buttonClasses("secondary")}>
        Show
      </button>
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
