"use client";

import { Fragment } from "react";
import Link from "next/link";
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
      // A webhook opens in the side panel over the list (a client navigation, intercepted by
      // app/(portal)/@panel); the other records open their page.
      return id && resource === "webhooks" ? (
        <Link href={`/webhooks/${encodeURIComponent(id)}`} prefetch={false} scroll={false} className="row-link">
          {text}
        </Link>
      ) : id ? (
        <a href={`/${resource}/${encodeURIComponent(id)}`} className="row-link">
          {text}
        </a>
      ) : (
        <>{text}</>
      );
    case "count":
      return <span className="whitespace-nowrap">{text}</span>;
    case "contents":
      return Array.isArray(value) ? <GroupContents summary={value} /> : null;
    case "list":
    case "code-list":
      return <Collapsed items={Array.isArray(value) ? value : []} code={column.kind === "code-list"} />;
    case "status":
      return <StatusBadge status={text} />;
    case "optional":
      return value === null ? <span className="text-slate-500">—</span> : <>{text}</>;
    case "group":
      return Array.isArray(value) ? (
        <a href={`/webhook-groups/${encodeURIComponent(value[0])}`} className="cell-above-link">
          {value[1]}
        </a>
      ) : (
        <span className="text-slate-500">—</span>
      );
    case "trigger":
      return Array.isArray(value) ? <TriggerMarks object={value[0]} letters={value[1]} /> : null;
    case "host":
      return text ? <code className="text-xs">{text}</code> : <span className="text-slate-500">—</span>;
    case "firing":
      return Array.isArray(value) ? <FiringStatus state={value[0]} severity={value[1]} findings={value[2]} why={value[3]} /> : null;
    case "stamp":
      return Array.isArray(value) && (value[0] || value[1]) ? (
        <span className="cell-stamp">
          {value[0]}
          {value[1] ? <span className="block text-xs text-slate-600">{value[1]}</span> : null}
        </span>
      ) : (
        <span className="text-slate-500">—</span>
      );
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

/** "5 webhooks · 4 enabled, 1 disabled" and the first two hosts with "+N". */
function GroupContents({ summary }: { summary: string[] }) {
  const [count, state, ...hosts] = summary;
  return (
    // Short markup (styled by `.cell-contents` in app/globals.css): it is on every row.
    <span className="cell-contents">
      {count}
      {state ? <i>{` · ${state}`}</i> : null}
      {hosts.length > 0 ? <Collapsed items={hosts} code /> : null}
    </span>
  );
}

/** "Changed since you last looked" (lib/history/marks.ts), linked to the record's changes. */
function ChangedMark({ resource, id }: { resource: EmsResource; id: string }) {
  return (
    <a
      href={`/changes?${resource === "events" ? "event" : resource === "webhooks" ? "webhook" : "group"}=${encodeURIComponent(id)}`}
      className="changed-mark"
      title="Changed since you last looked: see the changes"
      data-testid="changed-mark"
    >
      changed
    </a>
  );
}

/** `registrant` with I U D marks: the ones on are dark, the ones off faint (and said in words for readers). */
function TriggerMarks({ object, letters }: { object: string; letters: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <span>{object || "—"}</span>
      <span className="trigger-marks" role="img" aria-label={letters ? `on ${triggersInWords(letters)}` : "on no change"}>
        {Object.keys(TRIGGER_LETTERS).map((letter) => (
          <span key={letter} aria-hidden data-on={letters.includes(letter) ? "" : undefined}>
            {letter.toUpperCase()}
          </span>
        ))}
      </span>
    </span>
  );
}

const FIRING_LABELS: Record<string, string> = { enabled: "Enabled", disabled: "Disabled", "never-fires": "Never fires", unknown: "Unknown" };

/**
 * A webhook's status: never a green "Enabled" on one that cannot fire; its findings (lib/health)
 * beside it, coloured by the worst.
 */
function FiringStatus({ state, severity, findings, why }: { state: string; severity: string; findings: string; why: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <span className="firing-pill" data-state={state} title={why ? `Never fires: ${why}` : undefined} data-testid="webhook-firing">
        {FIRING_LABELS[state] ?? state}
      </span>
      {findings ? (
        <span className="findings-count" data-severity={severity} data-testid="webhook-findings">
          {findings}
        </span>
      ) : null}
    </span>
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
      {webhooks.map(([hookName, url, object, triggers, enabled, id], index) => (
        // One text node per part: React separates adjacent ones with a comment, bytes on every line.
        <li key={index} data-disabled={enabled ? undefined : ""}>
          {id ? (
            // Styled by `.webhook-lines a` (app/globals.css): 511 lines carry no class string.
            <Link href={`/webhooks/${encodeURIComponent(id)}`} prefetch={false} scroll={false}>
              {hookName || `Webhook ${id}`}
            </Link>
          ) : (
            <b>{hookName}</b>
          )}
          {` · ${object}: ${triggers ? triggersInWords(triggers) : "no triggers"}${enabled ? "" : " · disabled"}`}
          <code>{url}</code>
        </li>
      ))}
    </ul>
  );
}
