"use client";

import { Fragment } from "react";
import type { EmsResource } from "@/lib/ems/contract";
import type { TableCell, TableColumn, TableRow, WebhookLine } from "@/lib/listing/table-rows";
import { TRIGGER_LETTERS } from "@/lib/listing/trigger-letters";
import { StatusBadge } from "./status-badge";

/**
 * The body of a listing's table, drawn from compact rows (lib/listing/table-rows): the server sends
 * each row once, as data, instead of a tree of elements per cell, and the markup is drawn here, on
 * the server for the first HTML and in the browser when it hydrates. Styles repeated on every row
 * are the few classes of app/globals.css ("Listing rows"), not utility strings per cell.
 */
export function ListingRows({ resource, columns, rows }: { resource: EmsResource; columns: TableColumn[]; rows: TableRow[] }) {
  return (
    <tbody>
      {rows.map((row, index) => (
        <Fragment key={row.id ?? `#${index}`}>
          <tr data-testid="listing-row" data-id={row.id}>
            {columns.map((column, at) => (
              <td key={column.field} data-label={column.kind === "link" ? undefined : column.label}>
                <Cell resource={resource} column={column} value={row.cells[at]} id={row.id} />
                {at === 0 && row.changed && row.id ? <ChangedMark resource={resource} id={row.id} /> : null}
              </td>
            ))}
          </tr>
          {row.webhooks ? (
            <tr className="webhooks-row">
              <td colSpan={columns.length}>
                <Webhooks name={row.name ?? nameOf(columns, row)} webhooks={row.webhooks} />
              </td>
            </tr>
          ) : null}
        </Fragment>
      ))}
    </tbody>
  );
}

/** A group's name for the caption of its webhooks: its name cell when shown (then not sent twice). */
function nameOf(columns: TableColumn[], row: TableRow): string {
  const at = columns.findIndex((column) => column.field === "name");
  const cell = at >= 0 ? row.cells[at] : null;
  return typeof cell === "string" && cell !== "" ? cell : `group ${row.id ?? ""}`.trim();
}

function Cell({ resource, column, value, id }: { resource: EmsResource; column: TableColumn; value: TableCell; id?: string }) {
  const text = Array.isArray(value) ? value.join(", ") : (value ?? "");
  switch (column.kind) {
    case "link":
      // The link covers the whole row (.row-link::after over the positioned row): a click anywhere on
      // the row opens it, while the row stays one link for keyboards and screen readers.
      return id ? (
        <a href={`/${resource}/${encodeURIComponent(id)}`} className="row-link">
          {text}
        </a>
      ) : (
        <>{text}</>
      );
    case "list":
    case "code-list":
      return <Collapsed items={Array.isArray(value) ? value : []} code={column.kind === "code-list"} />;
    case "status":
      return <StatusBadge status={text} />;
    case "optional":
      return value === null ? <span className="text-slate-500">—</span> : <>{text}</>;
    default:
      return <>{text}</>;
  }
}

/** A list cell shows its first two entries and "+N" for the rest (all of them on the detail page). */
function Collapsed({ items, code }: { items: string[]; code: boolean }) {
  if (items.length === 0) return <span className="text-slate-500">None</span>;
  const rest = items.slice(2);
  return (
    <span className={code ? "cell-list code" : "cell-list"}>
      {items.slice(0, 2).join(", ")}
      {rest.length > 0 ? (
        <span className="more-badge" title={rest.join(", ")}>
          {`+${rest.length}`}
          <span className="sr-only">{` more: ${rest.join(", ")}`}</span>
        </span>
      ) : null}
    </span>
  );
}

/** "Changed since you last looked" (lib/history/marks.ts), linked to the record's changes. */
function ChangedMark({ resource, id }: { resource: EmsResource; id: string }) {
  return (
    <a
      href={`/changes?${resource === "events" ? "event" : "group"}=${encodeURIComponent(id)}`}
      className="changed-mark"
      title="Changed since you last looked: see the changes"
      data-testid="changed-mark"
    >
      changed
    </a>
  );
}

/** "iu" → "insert, update". */
function triggersInWords(letters: string): string {
  return [...letters].map((letter) => TRIGGER_LETTERS[letter as keyof typeof TRIGGER_LETTERS] ?? letter).join(", ");
}

/**
 * A group's webhooks, one line each: name, what fires it, and where it posts. The whole of each
 * webhook (headers, events) is on the group's page; a line here stays short so that 140 groups with
 * their webhooks remain one light page.
 */
function Webhooks({ name, webhooks }: { name: string; webhooks: WebhookLine[] }) {
  if (webhooks.length === 0) return <p className="text-slate-600">No webhooks in this group.</p>;
  return (
    <ul className="webhook-lines" aria-label={`Webhooks of ${name}`}>
      {webhooks.map(([hookName, url, object, triggers, enabled], index) => (
        // One text node per part: React separates adjacent ones with a comment, bytes on every line.
        <li key={index} data-disabled={enabled ? undefined : ""}>
          <b>{hookName}</b>
          {` · ${object}: ${triggers ? triggersInWords(triggers) : "no triggers"}${enabled ? "" : " · disabled"}`}
          <code>{url}</code>
        </li>
      ))}
    </ul>
  );
}
