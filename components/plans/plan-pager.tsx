import Link from "next/link";
import { pageWindow } from "@/lib/plans/page-window";

/**
 * The pages of a plan's changes (100 a page): where this page sits ("101–200 of 1,076"), then
 * Previous, the first and last pages and the ones around this one, and Next. Each target is 44 px
 * tall on a phone; a link lands on the Changes heading, not the top of the page. Never prefetched:
 * a plan page works out its impact from the account's setup, which only a click should spend.
 */

const TARGET = "inline-flex min-h-11 min-w-11 items-center justify-center rounded-md border px-3 text-sm tabular-nums sm:min-h-8 sm:min-w-8 sm:px-2.5";

export function PlanPager({
  planId,
  page,
  pageCount,
  perPage,
  total,
  label,
  anchor,
}: {
  planId: string;
  page: number;
  pageCount: number;
  perPage: number;
  total: number;
  /** Names this navigation (a page with two pagers names each its own way). */
  label: string;
  /** The id of the element a link lands on. */
  anchor: string;
}) {
  const href = (target: number) => `/plans/${planId}?page=${target}#${anchor}`;
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  const step = (target: number, text: string, rel: "prev" | "next") => (
    <li>
      {target >= 1 && target <= pageCount ? (
        <Link href={href(target)} prefetch={false} rel={rel} className={`${TARGET} border-slate-300 text-brand-700 hover:bg-slate-100`}>
          {text}
        </Link>
      ) : (
        <span className={`${TARGET} border-slate-200 text-slate-400`} aria-disabled="true">
          {text}
        </span>
      )}
    </li>
  );
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-x-3 gap-y-2" data-testid="plan-pager">
      <p className="text-sm text-slate-700 tabular-nums">
        {first.toLocaleString("en-US")}–{last.toLocaleString("en-US")} of {total.toLocaleString("en-US")} changes
      </p>
      <ul className="flex flex-wrap items-center gap-1">
        {step(page - 1, "Previous", "prev")}
        {pageWindow(page, pageCount).map((target, index) =>
          target === null ? (
            <li key={`gap-${index}`} aria-hidden className="px-1 text-slate-500">
              …
            </li>
          ) : (
            <li key={target}>
              {target === page ? (
                <span aria-current="page" className={`${TARGET} border-brand-600 bg-brand-600 font-medium text-white`}>
                  <span className="sr-only">Page </span>
                  {target}
                </span>
              ) : (
                <Link href={href(target)} prefetch={false} className={`${TARGET} border-slate-300 text-brand-700 hover:bg-slate-100`}>
                  <span className="sr-only">Page </span>
                  {target}
                </Link>
              )}
            </li>
          ),
        )}
        {step(page + 1, "Next", "next")}
      </ul>
    </nav>
  );
}
