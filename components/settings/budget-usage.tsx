import { LowBudgetNotice } from "@/components/listing/freshness";
import type { BudgetOverview } from "@/lib/credentials/budget";
import { formatSeconds } from "@/lib/duration";
import { formatCount } from "@/lib/listing/format";
import { SCROLL_TABLE_CELL, SettingsTable, type SettingsColumn } from "./settings-table";

const BUDGET_COLUMNS: SettingsColumn[] = [
  { label: "Kind" },
  { label: "Calls", numeric: true },
  { label: "Credits", numeric: true },
  { label: "Share", hidden: true, className: "w-2/5" },
];

/** The rate-limit budget of the member's key: this window's figures, and the last hour's use by kind. */
export function BudgetUsage({ overview }: { overview: BudgetOverview }) {
  const { budget, usage, totalCredits } = overview;
  const widest = Math.max(1, ...usage.map((kind) => kind.credits));
  return (
    <div className="space-y-4" data-testid="budget-usage">
      <p className="text-sm text-slate-700" data-testid="budget-window">
        {budget && budget.limit > 0 && budget.resetInSeconds > 0
          ? `This window: ${formatCount(budget.remaining)} of ${formatCount(budget.limit)} credits left for this key, resets in ${formatSeconds(budget.resetInSeconds)}.`
          : "No figures for the current window yet: the next page view brings them."}
      </p>
      <LowBudgetNotice budget={budget} />
      <SettingsTable
        fit="scroll"
        className="max-w-2xl"
        testId="budget-usage-table"
        caption="Credits your team spent with this key in the last hour"
        showCaption
        columns={BUDGET_COLUMNS}
        footer={
          <tr>
            <th scope="row" className={`${SCROLL_TABLE_CELL} text-left font-medium`}>
              Total
            </th>
            <td />
            <td className={`${SCROLL_TABLE_CELL} text-right font-medium tabular-nums`}>{formatCount(totalCredits)}</td>
            <td />
          </tr>
        }
      >
        {usage.map((kind) => (
          <tr key={kind.kind} data-testid={`budget-kind-${kind.kind}`}>
            <th scope="row" className={`${SCROLL_TABLE_CELL} text-left font-normal text-slate-800`}>
              {kind.label}
            </th>
            <td className={`${SCROLL_TABLE_CELL} text-right tabular-nums`}>{formatCount(kind.calls)}</td>
            <td className={`${SCROLL_TABLE_CELL} text-right tabular-nums`} data-testid={`budget-credits-${kind.kind}`}>
              {formatCount(kind.credits)}
            </td>
            <td className={SCROLL_TABLE_CELL}>
              {/* SVG attributes, not an inline style: the Content-Security-Policy allows no inline styles. */}
              <svg className="block h-2 w-full min-w-12" aria-hidden focusable="false">
                <rect width="100%" height="100%" rx="4" className="fill-slate-100" />
                {kind.credits > 0 ? <rect width={`${(kind.credits / widest) * 100}%`} height="100%" rx="4" className="fill-brand-600" /> : null}
              </svg>
            </td>
          </tr>
        ))}
      </SettingsTable>
      <p className="max-w-2xl text-xs text-slate-500">
        Everyone using this key spends from one budget (the EMS allows 2,000 credits per 10 minutes; a listing costs 10). Page views come first and identical ones within{" "}
        {overview.sharedAnswerSeconds} seconds share one answer; exports and other background work leave {overview.reservePercent}% of each window to page views and wait
        for the reset. Other teams or tools using the same key are not counted here, but spend from the same budget.
      </p>
    </div>
  );
}
