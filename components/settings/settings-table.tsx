import type { ReactNode } from "react";
import { ScrollX } from "@/components/ui/scroll-x";

export interface SettingsColumn {
  /** The header's text; with `hidden`, for screen readers only (an actions column, a bar). */
  label: string;
  hidden?: boolean;
  /** A column of numbers: right-aligned, as its cells are. */
  numeric?: boolean;
  /** More classes for the header cell (a width). */
  className?: string;
}

/** The padding of every cell of a "scroll" table, its header's included: the page's rows use it too. */
export const SCROLL_TABLE_CELL = "px-3 py-2";

/**
 * The one table of the settings pages (Team, Saved views, Budget, Alerts): a header in small
 * capitals over a line, rows divided by a faint one. Two ways to fit a phone:
 * - "stack": below 640 px the header is for screen readers only and each row lays itself out as a
 *   card (the page's cells carry the `max-sm:` classes that do it);
 * - "scroll": the table keeps its columns and scrolls sideways inside a framed box (ScrollX), its
 *   cells padded as its header's (SCROLL_TABLE_CELL).
 * The rows are the page's own: `children` are the body's <tr>s, `footer` the <tfoot>'s.
 */
export function SettingsTable({
  fit,
  columns,
  caption,
  showCaption = false,
  testId,
  className = "",
  tableClassName = "",
  footer,
  children,
}: {
  fit: "stack" | "scroll";
  columns: readonly SettingsColumn[];
  /** What the table holds, for screen readers (and shown above the rows with `showCaption`). */
  caption: string;
  showCaption?: boolean;
  testId?: string;
  /** Classes of the outermost element (the table, or the scrolling box around it). */
  className?: string;
  /** Classes of the table itself (a minimum width in a scrolling box). */
  tableClassName?: string;
  footer?: ReactNode;
  /** The body's rows. */
  children?: ReactNode;
}) {
  const stack = fit === "stack";
  const headerCell = stack ? "py-2 pr-4 font-medium last:pr-0" : `${SCROLL_TABLE_CELL} font-medium`;
  const table = (
    <table className={`w-full text-left text-sm ${stack ? `max-sm:block ${className}` : tableClassName}`.trim()} data-testid={testId}>
      <caption className={showCaption ? "px-3 pt-3 pb-2 text-left text-sm font-medium text-slate-700" : "sr-only"}>{caption}</caption>
      <thead className={`border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 ${stack ? "max-sm:sr-only" : "bg-slate-50"}`}>
        <tr>
          {columns.map((column) => (
            <th key={column.label} scope="col" className={`${headerCell} ${column.numeric ? "text-right" : ""} ${column.className ?? ""}`.trim()}>
              {column.hidden ? <span className="sr-only">{column.label}</span> : column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={`divide-y divide-slate-100 ${stack ? "max-sm:block" : ""}`.trim()}>{children}</tbody>
      {footer ? <tfoot className="border-t border-slate-200">{footer}</tfoot> : null}
    </table>
  );
  return stack ? table : <ScrollX className={`rounded-lg border border-slate-200 ${className}`.trim()}>{table}</ScrollX>;
}
