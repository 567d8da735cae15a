"use client";

import { Fragment } from "react";
import type { EmsResource } from "@/lib/ems/contract";
import type { TableCell, TableColumn, TableRow, WebhookLine } from "@/lib/listing/table-rows";
import { ANCHOR_PREFIX } from "@/lib/listing/anchors";
import { TRIGGER_LETTERS } from "@/lib/listing/trigger-letters";
import { formatCount } from "@/lib/listing/format";
import { GroupFindingsBadge, useGroupFindings } from "./group-findings";
import { StatusBadge } from "./status-badge";
import { usePanelLinkClick } from "./panel-links";
import { plural } from "@/lib/text/plural";

/**
 * The body of a listing's table, drawn from compact rows (lib/listing/table-rows): the server sends
 * each row once, as data, instead of a tree of elements per cell, and the markup is drawn here, on
 * the server for the first HTML and in the browser when it hydrates. Styles repeated on every row
 * are the few classes of app/globals.css ("Listing rows"), not utility strings per cell.
 */
export function ListingRows({
  resource,
  columns,
  rows,
  askFindings = false,
}: {
  resource: EmsResource;
  columns: TableColumn[];
  rows: TableRow[];
  askFindings?: boolean;
}) {
  // A group's findings come a moment after its row (components/listing/group-findings.tsx).
  const findings = useGroupFindings(
    askFindings && resource === "webhook-groups" && columns.some((column) => column.kind === "contents") ? rows.flatMap((row) => (row.id ? [row.id] : [])) : null,
  );
  // A webhook's link (its row, its line under a group) opens the side panel: ./panel-links.ts.
  const openInPanel = usePanelLinkClick();
  return (
    <tbody onClick={openInPanel}>
      {rows.map((row, index) => (
        <Fragment key={row.id ?? `#${index}`}>
          <tr data-testid="listing-row" data-id={row.id} id={row.id ? `${ANCHOR_PREFIX[resource]}${row.id}` : undefined}>
            {columns.map((column, at) => (
              <td key={column.field} data-label={column.kind === "link" ? undefined : column.label}>
                <Cell resource={resource} column={column} value={row.cells[at]} id={row.id} />
                {column.kind === "contents" && row.id ? <GroupFindingsBadge id={row.id} counts={findings} /> : null}
                {at === 0 && row.changed && row.id ? <ChangedMark resource={resource} id={row.id} /> : null}
              </td>
            ))}
            <PhoneRow resource={resource} columns={columns} row={row} />
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
      // A webhook opens in the side panel over the list (the table body's click handler,
      // ./panel-links.ts: a client navigation, intercepted by app/(portal)/@panel); the other records open their page.
      return id ? (
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
          {`+${formatCount(rest.length)}`}
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
function FiringStatus({ state, severity, findings, why, phone = false }: { state: string; severity: string; findings: string; why: string; phone?: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <span className="firing-pill" data-state={state} title={why ? `Never fires: ${why}` : undefined} data-testid={phone ? "phone-status" : "webhook-firing"}>
        {FIRING_LABELS[state] ?? state}
      </span>
      {findings ? (
        <span className="findings-count" data-severity={severity} data-testid={phone ? undefined : "webhook-findings"}>
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
            <a href={`/webhooks/${encodeURIComponent(id)}`}>{hookName || `Webhook ${id}`}</a>
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

/** What a row says on a phone (below 640 px): a title, a status pill and one line of detail. */
function PhoneRow({ resource, columns, row }: { resource: EmsResource; columns: TableColumn[]; row: TableRow }) {
  const cellOf = (kind: TableColumn["kind"] | string, byField = false) => {
    const at = columns.findIndex((column) => (byField ? column.field === kind : column.kind === kind));
    return at >= 0 ? row.cells[at] : undefined;
  };
  const asText = (cell: TableCell | undefined) => (Array.isArray(cell) ? cell.join(", ") : (cell ?? ""));
  const name = asText(cellOf("name", true)) || row.name || "";
  const title = name || asText(cellOf("link")) || (row.id ? `#${row.id}` : "");
  const detail: string[] = [];
  let pill: React.ReactNode = null;
  if (resource === "webhooks") {
    const firing = cellOf("firing");
    if (Array.isArray(firing)) pill = <FiringStatus state={firing[0]} severity={firing[1]} findings={firing[2]} why={firing[3]} phone />;
    const group = cellOf("group");
    if (Array.isArray(group)) detail.push(group[1]);
    const host = asText(cellOf("host"));
    if (host) detail.push(host);
  } else if (resource === "events") {
    const status = cellOf("status");
    if (status !== undefined) pill = <StatusBadge status={status} testId="phone-status" />;
    const starts = asText(cellOf("start_date", true));
    const ends = asText(cellOf("end_date", true));
    if (starts || ends) detail.push(starts && ends ? `${starts} – ${ends}` : starts || `ends ${ends}`);
  } else {
    const contents = cellOf("contents");
    const summary = Array.isArray(contents) ? contents : row.webhooks ? webhooksSummary(row.webhooks) : null;
    if (summary) {
      const [count, state, ...hosts] = summary;
      pill = <GroupState state={state} />;
      detail.push([count, ...hosts.slice(0, 2)].join(" · ") + (hosts.length > 2 ? ` +${hosts.length - 2}` : ""));
    }
  }
  // Whatever the page shows besides, when the usual detail is not among its columns.
  if (detail.length === 0) {
    for (const [at, column] of columns.entries()) {
      if (detail.length >= 2) break;
      if (["link", "status", "firing", "contents"].includes(column.kind) || column.field === "name") continue;
      const text = asText(row.cells[at]);
      if (text) detail.push(text);
    }
  }
  if (row.id && name) detail.unshift(`#${row.id}`);
  // No colSpan: the cell is shown only below 640 px, where the row is a block, not a table row.
  return (
    <td className="phone-row">
      <span className="phone-title">
        {row.id ? (
          <a href={`/${resource}/${encodeURIComponent(row.id)}`} className="phone-link">
            {title}
          </a>
        ) : (
          <b>{title}</b>
        )}
        {pill}
      </span>
      <span className="phone-detail">{detail.join(" · ")}</span>
    </td>
  );
}

/** A group's webhooks as its Contents cell would say them (the expanded list has no such cell). */
function webhooksSummary(webhooks: WebhookLine[]): string[] {
  const disabled = webhooks.filter((hook) => !hook[4]).length;
  const state =
    webhooks.length === 0
      ? ""
      : disabled === 0
        ? "all enabled"
        : disabled === webhooks.length
          ? "all disabled"
          : `${formatCount(webhooks.length - disabled)} enabled, ${formatCount(disabled)} disabled`;
  const hosts = [...new Set(webhooks.map((hook) => hostOf(hook[1])).filter(Boolean))];
  return [plural(webhooks.length, "webhook"), state, ...hosts];
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

/** A group's state as a pill: "Enabled", "Disabled", "2 disabled", or "Empty". */
function GroupState({ state }: { state: string }) {
  const [label, tone] =
    state === ""
      ? ["Empty", "unknown"]
      : state === "all enabled"
        ? ["Enabled", "enabled"]
        : state === "all disabled"
          ? ["Disabled", "disabled"]
          : [state.split(", ")[1] ?? state, "never-fires"];
  return (
    <span className="firing-pill" data-state={tone} data-testid="phone-status">
      {label}
    </span>
  );
}
