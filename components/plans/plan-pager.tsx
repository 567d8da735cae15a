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
  // On a phone: « ‹ 2 of 11 › » (every target 44 px, in one row at 390 px); from 640 px: Previous, the page numbers, Next.
  const step = (target: number, text: string, glyph: string, options: { rel?: "prev" | "next"; phoneOnly?: boolean } = {}) => {
    const content = (
      <>
        <span aria-hidden className="sm:hidden">
          {glyph}
        </span>
        <span className="max-sm:sr-only">{text}</span>
      </>
    );
    return (
      <li className={options.phoneOnly ? "sm:hidden" : undefined}>
        {target >= 1 && target <= pageCount && target !== page ? (
          <Link href={href(target)} prefetch={false} rel={options.rel} className={`${TARGET} border-slate-300 text-brand-700 hover:bg-slate-100`}>
            {content}
          </Link>
        ) : (
          <span className={`${TARGET} border-slate-200 text-slate-400`} aria-disabled="true">
            {content}
          </span>
        )}
      </li>
    );
  };
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-x-3 gap-y-2" data-testid="plan-pager">
      <p className="text-sm text-slate-700 tabular-nums">
        {first.toLocaleString("en-US")}–{last.toLocaleString("en-US")} of {total.toLocaleString("en-US")} changes
      </p>
      <ul className="flex flex-wrap items-center gap-1">
        {step(1, "First page", "«", { phoneOnly: true })}
        {step(page - 1, "Previous", "‹", { rel: "prev" })}
        <li className="px-2 text-sm text-slate-700 tabular-nums sm:hidden" aria-hidden>
          {page.toLocaleString("en-US")} of {pageCount.toLocaleString("en-US")}
        </li>
        {pageWindow(page, pageCount).map((target, index) =>
          target === null ? (
            <li key={`gap-${index}`} aria-hidden className="px-1 text-slate-500 max-sm:hidden">
              …
            </li>
          ) : (
            <li key={target} className="max-sm:hidden">
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
        {step(page + 1, "Next", "›", { rel: "next" })}
        {step(pageCount, "Last page", "»", { phoneOnly: true })}
      </ul>
    </nav>
  );
}
