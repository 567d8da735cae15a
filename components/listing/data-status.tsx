"use client";

import Link from "next/link";
import { Gauge } from "lucide-react";
import { formatSeconds } from "@/lib/duration";
import { formatCount } from "@/lib/listing/format";
import { Popover } from "@/components/ui/popover";
import { popoverPanel, toolbarButton } from "./toolbar/styles";

/** "just now", "12 s ago", "3 min ago". */
export function formatAge(seconds: number): string {
  if (seconds < 1) return "just now";
  if (seconds < 90) return `${seconds} s ago`;
  return `${Math.round(seconds / 60)} min ago`;
}

export interface DataStatusBudget {
  limit: number;
  remaining: number;
  resetInSeconds: number;
  low: boolean;
}

/**
 * One small indicator for how old the data on screen is and what is left of the API budget
 * ("2 min ago · 1,978 credits"), in the toolbar; its panel says the rest, holds the refresh (which
 * says its cost) and links to the budget's page in Settings.
 */
export function DataStatus({
  age,
  budget,
  refresh,
  details,
}: {
  /** Null when answers are not shared (every view asks the API: the data is always fresh). */
  age: { seconds: number; stale: boolean; windowSeconds: number } | null;
  budget: DataStatusBudget | null;
  /** The refresh button (a form): a listing's or the setup's. */
  refresh?: React.ReactNode;
  /** What was read, in a line ("The setup: 140 groups, …"). */
  details?: React.ReactNode;
}) {
  if (!age && !budget) return null;
  const warn = Boolean(age?.stale || budget?.low);
  return (
    <Popover
      align="end"
      className={`${popoverPanel} w-80 space-y-2`}
      aria-label="Data and API budget"
      trigger={(props) => (
        <button
          type="button"
          {...props}
          className={toolbarButton({ className: `whitespace-nowrap ${warn ? "border-amber-400! text-amber-900!" : "text-slate-600!"}` })}
          title="How old this data is, and the API budget left"
          data-testid="data-age"
        >
          <Gauge aria-hidden className="size-4 shrink-0" />
          <span className="sr-only">Data: </span>
          {age ? <span data-testid="data-age-value">{formatAge(age.seconds)}</span> : null}
          {age?.stale ? <span className="font-medium"> (stale)</span> : null}
          {age && budget ? (
            <span aria-hidden className="max-sm:hidden">
              ·
            </span>
          ) : null}
          {budget ? (
            <span className="max-sm:sr-only" data-testid="data-budget-value">
              {formatCount(budget.remaining)} credits
            </span>
          ) : null}
        </button>
      )}
    >
      <p className="text-slate-800">
        <span className="font-medium">Read from the EMS API {age ? formatAge(age.seconds) : "for this page"}</span>
        {age?.stale ? ", kept because the API's rate limit is used up" : ""}.
        {age ? ` Answers are shared with your team for ${formatSeconds(age.windowSeconds)}; a refresh asks the API again now.` : ""}
      </p>
      {details ? <p className="text-slate-700">{details}</p> : null}
      {refresh ? <div className="whitespace-nowrap">{refresh}</div> : null}
      {budget ? (
        <p className="border-t border-slate-200 pt-2 text-slate-800" data-testid="rate-budget">
          API budget: {budget.limit > 0 ? `${formatCount(budget.remaining)} of ${formatCount(budget.limit)} credits left` : "none left"}
          {budget.resetInSeconds > 0 ? `; the window resets in ${formatSeconds(budget.resetInSeconds)}` : ""}.
        </p>
      ) : null}
      <p>
        <Link href="/settings/budget" prefetch={false} className="font-medium text-brand-700 underline">
          The API budget in Settings
        </Link>
      </p>
    </Popover>
  );
}
