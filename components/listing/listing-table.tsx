import Link from "next/link";
import { Fragment } from "react";
import { fieldLabel, listingConfig } from "@/lib/listing/resources";
import { formatEventLocal, formatUtcInZone, plainValue } from "@/lib/listing/format";
import { hrefOf, sortByColumn, sortThenBy, type ListingState } from "@/lib/listing/search-params";
import { HeaderList } from "./hidden-value";
import { WebhookTable } from "./webhook-table";
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

// Plain links, not next/link: a row or a header is then no client component to render and hydrate
// (a page of 200 rows renders noticeably faster), and nothing prefetches. Every option is in the URL,
// so a full page load shows exactly the same thing.
function Cell({ state, field, row }: { state: ListingState; field: string; row: Row }) {
  const value = row[field];
  if (state.resource === "webhook-groups") {
    if (field === "id") {
      return (
        <a href={`/webhook-groups/${plainValue(value)}`} className="text-brand-700 underline">
          {plainValue(value)}
        </a>
      );
    }
    if (field === "headers") return <HeaderList headers={value} />;
    if (field === "notification_emails") {
      const list = Array.isArray(value) ? value.map(String) : [];
      return list.length ? <span className="break-all">{list.join(", ")}</span> : <span className="text-slate-500">None</span>;
    }
    return <>{plainValue(value)}</>;
  }
  switch (field) {
    case "id":
      return (
        <a href={`/events/${plainValue(value)}`} className="text-brand-700 underline">
          {plainValue(value)}
        </a>
      );
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

function SortHeader({ state, field }: { state: ListingState; field: string }) {
  const config = listingConfig(state.resource);
  const label = fieldLabel(config, field);
  if (!config.sortable.includes(field)) {
    return (
      <th scope="col" className="px-2 py-2">
        {label}
      </th>
    );
  }
  const level = state.sort.findIndex((s) => s.field === field);
  const current = level >= 0 ? state.sort[level] : undefined;
  const ariaSort = level === 0 ? (current!.direction === "asc" ? "ascending" : "descending") : undefined;
  const primaryNext = sortByColumn(state.sort, field)[0].direction;
  return (
    <th scope="col" className="whitespace-nowrap px-2 py-2" aria-sort={ariaSort}>
      {/* A client navigation, not prefetched (as the pagination's links). */}
      <Link
        href={hrefOf(state, { sort: sortByColumn(state.sort, field), page: 1 })}
        prefetch={false}
        className="text-slate-900 underline decoration-dotted hover:text-brand-700"
        data-testid={`sort-${field}`}
      >
        {label}
        {current ? (
          <span aria-hidden="true">
            {" "}
            {current.direction === "asc" ? "▲" : "▼"}
            {state.sort.length > 1 ? <sup>{level + 1}</sup> : null}
          </span>
        ) : null}
        <span className="sr-only">
          {current ? `, sorted ${current.direction === "asc" ? "ascending" : "descending"}${state.sort.length > 1 ? ` (level ${level + 1})` : ""}` : ""}
          {`; sort ${primaryNext === "asc" ? "ascending" : "descending"} by ${label}`}
        </span>
      </Link>
      {state.sort.length > 0 && !(state.sort.length === 1 && level === 0) ? (
        <Link
          href={hrefOf(state, { sort: sortThenBy(state.sort, field), page: 1 })}
          prefetch={false}
          className="ml-1 rounded border border-slate-300 px-1 text-xs font-normal text-slate-700 hover:bg-slate-100"
          aria-label={level >= 0 ? `Flip the direction of ${label} (sort level ${level + 1})` : `Then sort by ${label}`}
          title={level >= 0 ? "Flip this level's direction" : "Add as the next sort level"}
          data-testid={`then-by-${field}`}
        >
          {level >= 0 ? "⇅" : "+"}
        </Link>
      ) : null}
    </th>
  );
}

/** "Changed since you last looked" (lib/history/marks.ts), linked to the record's changes. */
function ChangedMark({ resource, id }: { resource: ListingState["resource"]; id: number }) {
  return (
    <a
      href={`/changes?${resource === "events" ? "event" : "group"}=${id}`}
      className="ml-1.5 inline-block rounded-full bg-amber-100 px-1.5 text-xs font-medium text-amber-900 no-underline hover:bg-amber-200"
      title="Changed since you last looked: see the changes"
      data-testid="changed-mark"
    >
      changed
    </a>
  );
}

export function ListingTable({ state, rows, changed }: { state: ListingState; rows: Row[]; changed?: ReadonlySet<number> }) {
  const config = listingConfig(state.resource);
  const showWebhooks = state.resource === "webhook-groups" && state.expand.includes("webhooks");
  return (
    <ScrollX>
      {/* Cell styles are set once on the table: 200 rows × columns of repeated classes cost real bytes. */}
      <table
        className="w-full border-collapse text-left text-sm [&_td]:px-2 [&_td]:py-2 [&>tbody>tr]:border-b [&>tbody>tr]:border-slate-200 [&>tbody>tr]:align-top"
        data-testid="listing-table"
      >
        <caption className="sr-only">
          {config.title}
          {state.sort.length > 0 ? `, sorted by ${state.sort.map((s) => `${fieldLabel(config, s.field)} ${s.direction === "asc" ? "ascending" : "descending"}`).join(", then ")}` : ""}
        </caption>
        <thead>
          <tr className="border-b-2 border-slate-300 bg-slate-50 text-xs uppercase tracking-wide text-slate-700">
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
                  <td key={field} data-field={field}>
                    <Cell state={state} field={field} row={row} />
                    {column === 0 && changed?.has(Number(row.id)) ? <ChangedMark resource={state.resource} id={Number(row.id)} /> : null}
                  </td>
                ))}
              </tr>
              {showWebhooks ? (
                <tr className="bg-slate-50/60" data-testid="webhooks-row">
                  <td colSpan={state.fields.length} className="px-4! pb-3! pt-1!">
                    <WebhookTable webhooks={row.webhooks} caption={`Webhooks of ${plainValue(row.name) || `group ${key}`}`} />
                  </td>
                </tr>
              ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </ScrollX>
  );
}
