import Link from "next/link";
import type { Actor } from "@/lib/access/actor";
import { startTrackingAction } from "@/lib/actions/history/start-tracking";
import { setTrackerIntervalAction } from "@/lib/actions/history/set-tracker-interval";
import { syncNowAction } from "@/lib/actions/history/sync-now";
import { pauseTrackerAction } from "@/lib/actions/history/pause-tracker";
import { takeOverTrackerAction } from "@/lib/actions/history/take-over-tracker";
import { DEFAULT_SYNC_INTERVAL, intervalLabel, SYNC_INTERVALS } from "@/lib/history/sync-intervals";
import type { TrackerOverview } from "@/lib/history/trackers";
import { canManageTeam } from "@/lib/access/roles";
import { ActionForm } from "@/components/forms/action-form";
import { buttonClasses } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { StopTrackingForm } from "./stop-tracking-form";
import { Time } from "@/components/ui/time";

function When({ date }: { date: Date }) {
  return <Time value={date} />;
}

const STATUS_WORDS: Record<string, string> = { ok: "Synced", failed: "Failed", paced: "Paced", paused: "Paused", running: "Running", skipped: "Skipped" };
const STATUS_TONE: Record<string, string> = {
  ok: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
  paused: "bg-amber-50 text-amber-900 ring-amber-200",
  paced: "bg-sky-50 text-sky-800 ring-sky-200",
  running: "bg-slate-100 text-slate-700 ring-slate-200",
};

function IntervalSelect({ id, value }: { id: string; value: number }) {
  return (
    <select id={id} name="intervalMinutes" defaultValue={value} className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm">
      {SYNC_INTERVALS.map((minutes) => (
        <option key={minutes} value={minutes}>
          {intervalLabel(minutes)}
        </option>
      ))}
    </select>
  );
}

function TrackerCard({ tracker, canManage }: { tracker: TrackerOverview; canManage: boolean }) {
  const last = tracker.lastSync;
  return (
    <article className="space-y-4 rounded-lg border border-slate-200 p-4" data-testid="tracker" aria-labelledby={`tracker-${tracker.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`tracker-${tracker.id}`} className="min-w-0 break-all font-medium text-slate-900">
          {tracker.accountLabel}
        </h3>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${tracker.status === "paused" ? STATUS_TONE.paused : STATUS_TONE.ok}`}
          data-testid="tracker-status"
        >
          {tracker.status === "paused" ? "Paused" : tracker.running ? "Syncing…" : "Tracking"}
        </span>
      </div>
      {tracker.status === "paused" && tracker.pausedReason ? (
        <Notice tone="warning" testId="tracker-paused-reason">
          {tracker.pausedReason}
        </Notice>
      ) : null}
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-500">Runs with</dt>
        <dd className="break-all">
          {tracker.runnerEmail ? `${tracker.runnerEmail}'s credentials${tracker.runnerIsActor ? " (yours)" : ""}` : "Nobody's (the member left)"}
        </dd>
        <dt className="font-medium text-slate-500">Set up by</dt>
        <dd className="break-all">
          {tracker.createdByEmail ?? "A former member"}, <When date={tracker.createdAt} />
        </dd>
        <dt className="font-medium text-slate-500">Schedule</dt>
        <dd>
          Syncs {intervalLabel(tracker.intervalMinutes)}
          {tracker.status === "active" ? (
            <>
              ; next <When date={tracker.nextRunAt} />
            </>
          ) : null}
        </dd>
        <dt className="font-medium text-slate-500">Last run</dt>
        <dd data-testid="tracker-last-run">
          {last ? (
            <span className="space-x-1">
              <span className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${STATUS_TONE[last.status] ?? STATUS_TONE.running}`}>
                {STATUS_WORDS[last.status] ?? last.status}
              </span>
              <When date={last.startedAt} />
              {last.calls > 0 ? (
                <span className="text-slate-600">
                  · {last.calls} calls, {last.credits} credits
                </span>
              ) : null}
              {last.message ? <span className="block break-words text-slate-700">{last.message}</span> : null}
            </span>
          ) : (
            <span className="text-slate-500">Not yet</span>
          )}
        </dd>
      </dl>
      <p className="text-sm">
        <Link href="/changes" className="text-brand-700 underline underline-offset-2">
          See the changes
        </Link>
      </p>
      {canManage ? (
        <div className="flex flex-wrap items-start gap-3 border-t border-slate-100 pt-4">
          {tracker.status === "active" ? (
            <ActionForm action={syncNowAction} className="flex flex-wrap items-center gap-2" label="Sync now" testId="sync-now">
              <input type="hidden" name="trackerId" value={tracker.id} />
              <button type="submit" className={buttonClasses("primary")}>
                Sync now
              </button>
            </ActionForm>
          ) : null}
          <ActionForm action={setTrackerIntervalAction} className="flex flex-wrap items-center gap-2" label="Schedule" testId="tracker-interval">
            <input type="hidden" name="trackerId" value={tracker.id} />
            <label htmlFor={`interval-${tracker.id}`} className="text-sm text-slate-700">
              Sync
            </label>
            <IntervalSelect id={`interval-${tracker.id}`} value={tracker.intervalMinutes} />
            <button type="submit" className={buttonClasses("secondary")}>
              Save schedule
            </button>
          </ActionForm>
          {tracker.status === "paused" || !tracker.runnerIsActor ? (
            tracker.isOwnAccount ? (
              <ActionForm action={takeOverTrackerAction} className="flex flex-wrap items-center gap-2" label="Take over" testId="tracker-take-over">
                <input type="hidden" name="trackerId" value={tracker.id} />
                <button type="submit" className={buttonClasses("secondary")}>
                  {tracker.runnerIsActor ? "Resume" : "Run it with my credentials"}
                </button>
              </ActionForm>
            ) : null
          ) : (
            <ActionForm action={pauseTrackerAction} className="flex flex-wrap items-center gap-2" label="Pause" testId="tracker-pause">
              <input type="hidden" name="trackerId" value={tracker.id} />
              <button type="submit" className={buttonClasses("secondary")}>
                Pause
              </button>
            </ActionForm>
          )}
          <StopTrackingForm trackerId={tracker.id} accountLabel={tracker.accountLabel} />
        </div>
      ) : null}
    </article>
  );
}

/** Settings → Change tracking: the team's trackers, and turning tracking on for one's own account. */
export function HistorySection({ actor, trackers, hasCredential }: { actor: Actor; trackers: TrackerOverview[]; hasCredential: boolean }) {
  const canManage = canManageTeam(actor.role);
  const ownTracked = trackers.some((tracker) => tracker.isOwnAccount);
  return (
    <section aria-labelledby="history-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6" data-testid="history-section">
      <h2 id="history-heading" className="text-lg font-semibold">
        Tracked accounts
      </h2>
      <div className="mt-4 space-y-4">
        {trackers.map((tracker) => (
          <TrackerCard key={tracker.id} tracker={tracker} canManage={canManage} />
        ))}
        {!ownTracked ? (
          canManage ? (
            hasCredential ? (
              <ActionForm action={startTrackingAction} className="flex flex-wrap items-center gap-2" label="Track this account" testId="start-tracking">
                <label htmlFor="interval-new" className="text-sm text-slate-700">
                  Track the account of your credentials, syncing
                </label>
                <IntervalSelect id="interval-new" value={DEFAULT_SYNC_INTERVAL} />
                <button type="submit" className={buttonClasses("primary")}>
                  Turn on tracking
                </button>
              </ActionForm>
            ) : (
              <p className="text-sm text-slate-600">
                <Link href="/settings/credentials" className="text-brand-700 underline underline-offset-2">
                  Save your API credentials
                </Link>{" "}
                to track their account.
              </p>
            )
          ) : trackers.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="history-member-hint">
              Nothing is tracked yet. An owner or admin can turn tracking on with their own credentials.
            </p>
          ) : null
        ) : null}
      </div>
    </section>
  );
}
