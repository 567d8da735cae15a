import { ArrowDown, ArrowUp } from "lucide-react";
import { fieldLabel, listingConfig } from "@/lib/listing/resources";
import { hrefWith, sortByColumn, sortThenBy } from "@/lib/listing/href";
import type { ListingState } from "@/lib/listing/search-params";
import { tableData, type WebhookRowContext } from "@/lib/listing/table-rows";
import { directionInWords } from "@/lib/listing/words";
import { ListingRows } from "./listing-rows";
import { ListingScroll } from "./listing-scroll";
import { ListingLink } from "./toolbar/listing-navigation";

// Sticky (below the portal's bar) or moved by script: .listing-scroll in app/globals.css.
const thClass = "z-10 whitespace-nowrap bg-slate-50 px-2 py-2 shadow-[inset_0_-2px_0_var(--color-slate-300)]";

/**
 * A header sorts by its column: click for ascending → descending → off, shift-click to add it as the
 * next level (links either way, so it works without JavaScript and opens in a new tab on ⌘-click).
 * With no sort asked for, the ID column carries a faint mark: the API lists by id.
 */
function SortHeader({ state, field }: { state: ListingState; field: string }) {
  const config = listingConfig(state.resource);
  const label = fieldLabel(config, field);
  if (!config.sortable.includes(field)) {
    return (
      <th scope="col" className={thClass}>
        {label}
      </th>
    );
  }
  const level = state.sort.findIndex((s) => s.field === field);
  const current = level >= 0 ? state.sort[level] : undefined;
  const isDefaultOrder = state.sort.length === 0 && field === "id";
  const ariaSort = level === 0 ? (current!.direction === "asc" ? "ascending" : "descending") : isDefaultOrder ? "ascending" : undefined;
  const Arrow = current?.direction === "desc" ? ArrowDown : ArrowUp;
  const next = sortByColumn(state.sort, field);
  const nextWords = next[0]?.field === field ? `sort ${directionInWords(field, next[0].direction)}` : "stop sorting by it";
  return (
    <th scope="col" className={thClass} aria-sort={ariaSort}>
      <ListingLink
        href={hrefWith(state, { sort: next })}
        shiftHref={hrefWith(state, { sort: sortThenBy(state.sort, field) })}
        className="group inline-flex items-center gap-1 text-slate-900 hover:text-brand-700"
        title={`Click: ${nextWords}. Shift-click: ${level >= 0 ? "change this level" : "add as the next sort level"}.`}
        data-testid={`sort-${field}`}
      >
        {label}
        {current ? (
          <span aria-hidden className="inline-flex items-center text-brand-700">
            <Arrow className="size-3.5" />
            {state.sort.length > 1 ? <span className="text-[10px] font-semibold">{level + 1}</span> : null}
          </span>
        ) : isDefaultOrder ? (
          <span aria-hidden className="inline-flex items-center text-slate-400" data-testid="default-order-mark">
            <ArrowUp className="size-3.5" />
          </span>
        ) : (
          <ArrowUp aria-hidden className="size-3.5 opacity-0 group-hover:opacity-40" />
        )}
        <span className="sr-only">
          {current
            ? `, sorted ${directionInWords(field, current.direction)}${state.sort.length > 1 ? ` (level ${level + 1})` : ""}`
            : isDefaultOrder
              ? ", the default order"
              : ""}
          {`; ${nextWords}`}
        </span>
      </ListingLink>
    </th>
  );
}

/**
 * Cell styles are set once on the table: 200 rows × columns of repeated classes cost real bytes.
 * - From 640 px: a table in the page's own scroll, its header sticky below the portal's bar
 *   (`--portal-sticky-top`, app/globals.css); a table wider than its box scrolls sideways in it.
 * - Below 640 px: each row is two lines (its `.phone-row` cell: title, status pill, one line of
 *   detail); sorting is then the toolbar's sort menu.
 */
const TABLE_CLASSES = [
  "w-full border-collapse text-left text-sm",
  "[&>tbody>tr>td]:px-2 [&>tbody>tr>td]:py-2 [&>tbody>tr]:border-b [&>tbody>tr]:border-slate-200 [&>tbody>tr]:align-top",
  "[&>tbody>tr[data-id]]:relative [&>tbody>tr[data-id]:hover]:bg-slate-50",
  "max-sm:block max-sm:[&>caption]:hidden max-sm:[&>thead]:hidden max-sm:[&>tbody]:block",
  "max-sm:[&>tbody>tr]:block max-sm:[&>tbody>tr>td:not(.phone-row)]:hidden",
].join(" ");

export function ListingTable({
  state,
  rows,
  changed,
  context,
  askFindings = false,
}: {
  state: ListingState;
  rows: Record<string, unknown>[];
  changed?: ReadonlySet<number>;
  context?: WebhookRowContext;
  /** The groups list asks for its groups' health findings (components/listing/group-findings.tsx). */
  askFindings?: boolean;
}) {
  const config = listingConfig(state.resource);
  const data = tableData(state, rows, changed, context);
  return (
    <ListingScroll label={`${config.title}, scrollable sideways`}>
      <table className={TABLE_CLASSES} data-testid="listing-table">
        <caption className="sr-only">
          {config.title}
          {state.sort.length > 0
            ? `, sorted by ${state.sort.map((s) => `${fieldLabel(config, s.field)} ${s.direction === "asc" ? "ascending" : "descending"}`).join(", then ")}`
            : ""}
        </caption>
        <thead>
          <tr className="text-xs uppercase tracking-wide text-slate-700">
            {state.fields.map((field) => (
              <SortHeader key={field} state={state} field={field} />
            ))}
            {/* Columns the page adds after the chosen ones (a group's contents): not sortable. */}
            {data.columns.slice(state.fields.length).map((column) => (
              <th key={column.field} scope="col" className={thClass}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <ListingRows resource={data.resource} columns={data.columns} rows={data.rows} askFindings={askFindings} />
      </table>
    </ListingScroll>
  );
}
