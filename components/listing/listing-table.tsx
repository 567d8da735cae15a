import { Fragment } from "react";
import { ArrowDown, ArrowUp } from "lucide-react";
import { fieldLabel, listingConfig } from "@/lib/listing/resources";
import { formatEventLocal, formatUtcInZone, plainValue } from "@/lib/listing/format";
import { hrefWith, sortByColumn, sortThenBy } from "@/lib/listing/href";
import type { ListingState } from "@/lib/listing/search-params";
import { directionInWords } from "@/lib/listing/words";
import { WebhookTable } from "./webhook-table";
import { ListingLink } from "./toolbar/listing-navigation";
import { ScrollX } from "@/components/ui/scroll-x";

type Row = Record<string, unknown>;

const STATUS_STYLES: Record<string, string> = {
  live: "bg-green-100 text-green-900",
  draft: "bg-slate-200 text-slate-800",
  closed: "bg-blue-100 text-blue-900",
  cancelled: "bg-red-100 text-red-900",
};

export function StatusBadge({ status }: { status: unknown }) {
  const text = plainValue(status);
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLES[text] ?? "bg-slate-100 text-slate-900"}`} data-testid="status-badge">
      {text || "unknown"}
    </span>
  );
}

/** A list cell shows its first two entries and "+N" for the rest (all of them on the detail page). */
function Collapsed({ items, empty = "None" }: { items: string[]; empty?: string }) {
  if (items.length === 0) return <span className="text-slate-500">{empty}</span>;
  const shown = items.slice(0, 2);
  const rest = items.length - shown.length;
  return (
    <span className="[overflow-wrap:anywhere]">
      {shown.join(", ")}
      {rest > 0 ? (
        <span className="ml-1 rounded bg-slate-100 px-1 text-xs text-slate-700" title={items.slice(2).join(", ")}>
          +{rest}
          <span className="sr-only"> more: {items.slice(2).join(", ")}</span>
        </span>
      ) : null}
    </span>
  );
}

/** Where a row leads: its detail page. */
function detailHref(state: ListingState, row: Row): string {
  return `/${state.resource}/${encodeURIComponent(plainValue(row.id))}`;
}

/**
 * The column whose text links to the row's page: the id, or else the name. Its link covers the whole
 * row (an ::after over the positioned row), so a click anywhere on the row opens it, while the row
 * stays one link for keyboards and screen readers; the few controls inside a row sit above it.
 */
function linkField(state: ListingState): string | undefined {
  return state.fields.includes("id") ? "id" : state.fields.includes("name") ? "name" : undefined;
}

// Plain server-rendered markup: a row is no client component to render and hydrate (a page of 200
// rows renders noticeably faster). Every option is in the URL, so a full load shows the same thing.
function Cell({ state, field, row, link }: { state: ListingState; field: string; row: Row; link: boolean }) {
  const value = row[field];
  if (link) {
    return (
      <a href={detailHref(state, row)} className="font-medium text-brand-700 underline-offset-2 after:absolute after:inset-0 after:content-[''] hover:underline">
        {plainValue(value)}
      </a>
    );
  }
  if (state.resource === "webhook-groups") {
    if (field === "headers") {
      const list = Array.isArray(value) ? (value as { key?: unknown }[]).map((h) => String(h?.key ?? "")) : [];
      return <span className="font-mono text-xs"><Collapsed items={list} /></span>;
    }
    if (field === "notification_emails") return <Collapsed items={Array.isArray(value) ? value.map(String) : []} />;
    return <>{plainValue(value)}</>;
  }
  switch (field) {
    case "status":
      return <StatusBadge status={value} />;
    case "start_date":
      return <>{formatEventLocal(value, row.start_time, row.timezone)}</>;
    case "end_date":
      return <>{formatEventLocal(value, row.end_time, row.timezone)}</>;
    case "created_at":
    case "updated_at":
      return <>{formatUtcInZone(value, row.timezone)}</>;
    case "free_event":
      return <>{value === 1 || value === true || value === "1" ? "Yes" : value === 0 || value === false || value === "0" ? "No" : ""}</>;
    case "capacity":
    case "type_id":
    case "folder_id":
      return value === null || value === undefined ? <span className="text-slate-500">—</span> : <>{plainValue(value)}</>;
    default:
      return <>{plainValue(value)}</>;
  }
}

const thClass = "sticky top-0 z-10 whitespace-nowrap bg-slate-50 px-2 py-2 shadow-[inset_0_-2px_0_var(--color-slate-300)]";

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

/** "Changed since you last looked" (lib/history/marks.ts), linked to the record's changes. */
function ChangedMark({ resource, id }: { resource: ListingState["resource"]; id: number }) {
  return (
    <a
      href={`/changes?${resource === "events" ? "event" : "group"}=${id}`}
      className="relative z-[1] ml-1.5 inline-block rounded-full bg-amber-100 px-1.5 text-xs font-medium text-amber-900 no-underline hover:bg-amber-200"
      title="Changed since you last looked: see the changes"
      data-testid="changed-mark"
    >
      changed
    </a>
  );
}

/**
 * Cell styles are set once on the table: 200 rows × columns of repeated classes cost real bytes.
 * - From 640 px: a table in its own scroll box (sideways for wide tables, down with a sticky header).
 * - Below 640 px: each row is a card, each cell a labelled line (its label from `data-label`);
 *   sorting is then the toolbar's sort menu.
 */
const TABLE_CLASSES = [
  "w-full border-collapse text-left text-sm",
  "[&>tbody>tr>td]:px-2 [&>tbody>tr>td]:py-2 [&>tbody>tr]:border-b [&>tbody>tr]:border-slate-200 [&>tbody>tr]:align-top",
  "[&>tbody>tr[data-id]]:relative [&>tbody>tr[data-id]:hover]:bg-slate-50",
  "max-sm:block max-sm:[&>caption]:hidden max-sm:[&>thead]:hidden max-sm:[&>tbody]:block max-sm:[&>tbody]:space-y-2",
  "max-sm:[&>tbody>tr]:block max-sm:[&>tbody>tr]:rounded-lg max-sm:[&>tbody>tr]:border max-sm:[&>tbody>tr]:bg-white max-sm:[&>tbody>tr]:p-2",
  "max-sm:[&>tbody>tr>td]:flex max-sm:[&>tbody>tr>td]:gap-3 max-sm:[&>tbody>tr>td]:[overflow-wrap:anywhere] max-sm:[&>tbody>tr>td]:py-1 max-sm:[&>tbody>tr>td[data-label]]:before:w-24 max-sm:[&>tbody>tr>td[data-label]]:before:shrink-0 max-sm:[&>tbody>tr>td[data-label]]:before:text-xs max-sm:[&>tbody>tr>td[data-label]]:before:font-medium max-sm:[&>tbody>tr>td[data-label]]:before:text-slate-600 max-sm:[&>tbody>tr>td[data-label]]:before:content-[attr(data-label)]",
].join(" ");

export function ListingTable({ state, rows, changed }: { state: ListingState; rows: Row[]; changed?: ReadonlySet<number> }) {
  const config = listingConfig(state.resource);
  const showWebhooks = state.resource === "webhook-groups" && state.expand.includes("webhooks");
  const linked = linkField(state);
  return (
    <div tabIndex={0} role="region" aria-label={`${config.title}, scrollable`} className="relative sm:max-h-[calc(100dvh-10rem)] sm:overflow-auto sm:rounded-md sm:border sm:border-slate-200 sm:bg-white" data-testid="listing-scroll">
      <table className={TABLE_CLASSES} data-testid="listing-table">
        <caption className="sr-only">
          {config.title}
          {state.sort.length > 0 ? `, sorted by ${state.sort.map((s) => `${fieldLabel(config, s.field)} ${s.direction === "asc" ? "ascending" : "descending"}`).join(", then ")}` : ""}
        </caption>
        <thead>
          <tr className="text-xs uppercase tracking-wide text-slate-700">
            {state.fields.map((field) => (
              <SortHeader key={field} state={state} field={field} />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const key = String(row.id ?? index);
            return (
              <Fragment key={key}>
                <tr data-testid="listing-row" data-id={key}>
                  {state.fields.map((field, column) => (
                    <td key={field} data-field={field} data-label={field === linked ? undefined : fieldLabel(config, field)}>
                      <Cell state={state} field={field} row={row} link={field === linked && row.id !== undefined} />
                      {column === 0 && changed?.has(Number(row.id)) ? <ChangedMark resource={state.resource} id={Number(row.id)} /> : null}
                    </td>
                  ))}
                </tr>
                {showWebhooks ? (
                  <tr className="bg-slate-50/60" data-testid="webhooks-row">
                    <td colSpan={state.fields.length} className="px-4! pb-3! pt-1! max-sm:block!">
                      <ScrollX>
                        <WebhookTable webhooks={row.webhooks} caption={`Webhooks of ${plainValue(row.name) || `group ${key}`}`} />
                      </ScrollX>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
