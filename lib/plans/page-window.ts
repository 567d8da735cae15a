/** Pure: which page numbers a pager of a plan's changes (components/plans/plan-pager.tsx) shows. */

/**
 * The first, the last, and two either side of the current one; null is a gap of two pages or more
 * (a gap of one shows that page instead: "…" would take as much room).
 */
export function pageWindow(page: number, pageCount: number): (number | null)[] {
  const shown = new Set([1, pageCount, page - 2, page - 1, page, page + 1, page + 2].filter((value) => value >= 1 && value <= pageCount));
  const sorted = [...shown].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((value, index) => {
    if (index > 0 && value - sorted[index - 1] > 1) out.push(value - sorted[index - 1] === 2 ? value - 1 : null);
    out.push(value);
  });
  return out;
}
