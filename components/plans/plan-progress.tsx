"use client";

import { useEffect, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { PlanProgress } from "@/lib/plans/page";
import { plural } from "@/lib/text/plural";

/**
 * A plan's progress bar and count. While it is applied (`live`), it asks GET /api/plans/{id}/progress
 * every two seconds (counted in SQL, no EMS call) and renders the page again only once the plan's
 * state changes: rendering the whole page every two seconds read the account's setup each time.
 */
export function PlanProgressView({ planId, initial, live }: { planId: string; initial: PlanProgress; live: boolean }) {
  const router = useRouter();
  // What was polled since the page last rendered: a new render's figures replace it.
  const [polled, setPolled] = useState<{ since: PlanProgress; value: PlanProgress } | null>(null);
  const progress = polled?.since === initial ? polled.value : initial;
  useEffect(() => {
    if (!live) return;
    let stopped = false;
    const timer = setInterval(async () => {
      const response = await fetch(`/api/plans/${planId}/progress`, { cache: "no-store" }).catch((error: unknown) => {
        console.warn("plan progress: not reached", error);
        return null;
      });
      if (stopped || !response?.ok) return;
      const next = (await response.json()) as PlanProgress;
      if (stopped) return;
      setPolled({ since: initial, value: next });
      if (next.status !== initial.status) router.refresh();
    }, 2000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [live, planId, initial, router]);

  const done = progress.counts.applied + progress.counts.skipped;
  return (
    <div className="space-y-1" data-testid="plan-progress">
      {/* A native progress bar: an inline `style` width is refused by the page's Content-Security-Policy
          (style-src with a nonce), and the bar then showed full whatever was done. */}
      <progress
        className="block h-2 w-full appearance-none overflow-hidden rounded-full bg-slate-100 [&::-moz-progress-bar]:bg-emerald-500 [&::-webkit-progress-bar]:bg-slate-100 [&::-webkit-progress-value]:bg-emerald-500"
        value={done}
        max={Math.max(1, progress.operationCount)}
        aria-label="Steps done"
        data-testid="plan-progress-bar"
      />
      <p className="text-sm text-slate-700" data-testid="plan-progress-count">
        {done.toLocaleString("en-US")} of {plural(progress.operationCount, "step")} done
        {progress.counts.failed ? `, ${progress.counts.failed} failed` : ""}
        {progress.counts.conflict ? `, ${progress.counts.conflict} in conflict` : ""}
        {progress.counts.skipped ? ` (${progress.counts.skipped} skipped)` : ""}
      </p>
      {progress.current ? (
        // Where it is, one click away on a plan of many pages.
        <p className="text-sm text-slate-600" data-testid="plan-progress-current">
          Now:{" "}
          <Link href={`/plans/${planId}?page=${progress.current.page}#step-${progress.current.position + 1}`} prefetch={false} className="text-brand-700 underline">
            step {(progress.current.position + 1).toLocaleString("en-US")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
