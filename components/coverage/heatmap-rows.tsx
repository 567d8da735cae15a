"use client";

import Link from "next/link";
import { StatusBadge } from "@/components/listing/status-badge";
import { coverageHref, type CoverageState } from "@/lib/coverage/href";
import { heatCellsOf, type HeatCell, type HeatRowData } from "@/lib/coverage/heatmap";
import { triggerLabel, triggerObjectLabel } from "@/lib/setup/triggers";
import { MARK_WORDS } from "./marks";

/** Short names for a phone's row, where eight full names do not fit. */
const SHORT: Record<string, string> = {
  event: "Event",
  contact: "Contact",
  registrant: "Reg.",
  speaker: "Speaker",
  sponsor: "Sponsor",
  session: "Session",
  session_attendance: "Attend.",
  registrant_line_item: "Line item",
};

/** The cell's words: the list around it names the event ("Coverage of …"), so the cell names only its object and marks. */
function cellLabel(cell: HeatCell): string {
  const parts = cell.marks.map((mark) => `${mark.action} ${MARK_WORDS[mark.state]}${mark.webhooks ? ` (${mark.webhooks})` : ""}`);
  return `${triggerObjectLabel(cell.object)}: ${parts.join(", ")}. Show the webhooks`;
}

/**
 * The heat map's rows, drawn from compact rows (lib/coverage/heatmap.ts `heatRowData`): the server
 * sends each row once, as data, and the markup is drawn here, on the server for the first HTML and
 * in the browser when it hydrates. What every cell repeats is a class of app/globals.css ("Coverage's
 * heat map"). A cell is a link that opens its panel in place (`panel`, rendered by the server).
 */
export function HeatmapRows({
  rows,
  objects,
  state,
  panel,
}: {
  rows: readonly HeatRowData[];
  objects: readonly string[];
  /** the page's options, for the cells' links (the open cell's link closes it) */
  state: Omit<CoverageState, "notices">;
  /** the open cell's panel, under its row */
  panel: React.ReactNode;
}) {
  const open = state.cell;
  return rows.map((row) => {
    const name = row.name || `Event ${row.id}`;
    const openObject = open?.eventId === row.id ? open.object : null;
    return (
      <li key={row.id} className="heat-row" data-testid="coverage-row" data-event-id={row.id}>
        <div className="heat-grid">
          <div className="min-w-0">
            <Link href={`/events/${row.id}`} prefetch={false} className="heat-event" title={name}>
              {name}
            </Link>
            <p className="truncate text-xs text-slate-600">
              {row.status ? <StatusBadge status={row.status} testId="coverage-status" /> : "Status unknown"}
              {row.start ? ` · ${row.start}` : ""}
              {row.missing.length > 0 ? (
                <span className="text-red-800" data-testid="requirements">
                  {" "}
                  · missing {row.missing.map(triggerLabel).join(", ")}
                </span>
              ) : null}
            </p>
          </div>
          <ul className="flex flex-wrap gap-1 lg:contents" aria-label={`Coverage of ${name}`}>
            {heatCellsOf(row, objects).map((cell) => {
              const current = openObject === cell.object;
              return (
                <li key={cell.object} className="heat-li">
                  <Link
                    href={coverageHref({ ...state, notices: [] }, { cell: current ? null : { eventId: row.id, object: cell.object } })}
                    scroll={false}
                    prefetch={false}
                    aria-label={cellLabel(cell)}
                    aria-expanded={current}
                    className="heat-cell"
                    data-testid="coverage-cell"
                    data-object={cell.object}
                    data-state={cell.marks.map((mark) => mark.state).join(" ")}
                  >
                    {/* One hidden wrapper, its marks bare elements styled by their class: 400 cells a page. */}
                    <span aria-hidden className="heat-marks">
                      <span>{SHORT[cell.object] ?? triggerObjectLabel(cell.object)}</span>
                      {cell.marks.map((mark) => (
                        <i key={mark.action} className={mark.state} />
                      ))}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
        {openObject ? panel : null}
      </li>
    );
  });
}
