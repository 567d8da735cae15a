"use client";
import { useId, useRef, useState } from "react";
import { readExportEvents, type ExportEvent, type ExportFormat } from "@/lib/listing/export-events";
import { formatSeconds } from "@/lib/duration";
import { useReauth } from "@/components/auth/reauth-context";
import { jsonBodyOrNull } from "@/lib/http/json-body";
import type { ReauthProof } from "@/lib/forms/action-state";
import { toolbarButton } from "./toolbar/styles";

type StartEvent = Extract<ExportEvent, { type: "start" }>;

export type ExportStatus =
  | { phase: "idle" }
  | { phase: "running"; format: ExportFormat; rows: number; total: number | null; waitingSeconds: number | null }
  | { phase: "done"; rows: number; truncated: boolean; matching: number; headerValues: "hidden" | "included" }
  | { phase: "cancelled" }
  | { phase: "failed"; message: string };

/**
 * The export's panel (./export-button.tsx draws its button): the choice of format, the run with its
 * progress and cancel, and saving the file. Loaded when the panel first opens; mounted from then on,
 * so an export goes on while the panel is closed, and the button shows its progress through `status`.
 */
export function ExportPanel({
  resource,
  search,
  maxRows,
  status,
  setStatus,
}: {
  resource: string;
  search: string;
  maxRows: number;
  status: ExportStatus;
  setStatus: (status: ExportStatus) => void;
}) {
  const [includeHeaderValues, setIncludeHeaderValues] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const checkboxId = useId();
  const hasHeaders = resource === "webhook-groups";
  const requestReauth = useReauth();

  async function run(format: ExportFormat, retried = false) {
    const abort = new AbortController();
    controller.current = abort;
    setStatus({ phase: "running", format, rows: 0, total: null, waitingSeconds: null });
    try {
      const params = new URLSearchParams(search);
      params.set("format", format);
      if (hasHeaders && includeHeaderValues) params.set("headerValues", "include");
      const response = await fetch(`/api/export/${resource}?${params.toString()}`, { signal: abort.signal });
      if (!response.ok || !response.body) {
        const body = await jsonBodyOrNull<{ error?: string; reauthRequired?: ReauthProof }>(response);
        // Header values need a recent sign-in: confirm, then the same export starts again.
        if (response.status === 403 && body?.reauthRequired && !retried && requestReauth) {
          setStatus({ phase: "idle" });
          if (await requestReauth(body.reauthRequired)) return run(format, true);
        }
        setStatus({ phase: "failed", message: body?.error ?? `The export failed (${response.status}).` });
        return;
      }
      const chunks: string[] = [];
      // Filled in by the events (a callback: kept in an object, not in narrowed locals).
      const seen: { start: StartEvent | null; outcome: ExportStatus | null } = { start: null, outcome: null };
      await readExportEvents(response.body, (event) => {
        const total = seen.start?.total ?? null;
        switch (event.type) {
          case "start":
            seen.start = event;
            setStatus({ phase: "running", format, rows: 0, total: event.total, waitingSeconds: null });
            break;
          case "data":
            chunks.push(event.text);
            setStatus({ phase: "running", format, rows: event.rows, total, waitingSeconds: null });
            break;
          case "heartbeat":
            setStatus({ phase: "running", format, rows: event.rows, total, waitingSeconds: event.waitingSeconds });
            break;
          case "error":
            seen.outcome = { phase: "failed", message: event.message };
            break;
          case "end":
            if (seen.start)
              seen.outcome = { phase: "done", rows: event.rows, truncated: seen.start.truncated, matching: seen.start.matching, headerValues: seen.start.headerValues };
            break;
        }
      });
      const { start, outcome } = seen;
      if (!start || !outcome || outcome.phase !== "done") {
        setStatus(outcome ?? { phase: "failed", message: "The export stopped before the end; nothing was saved. Please try again." });
        return;
      }
      const blob = new Blob(chunks, { type: format === "csv" ? "text/csv;charset=utf-8" : "application/json" });
      const href = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = href;
      link.download = start.filename || `${resource}.${format}`;
      link.dataset.testid = "export-download";
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      setStatus(outcome);
    } catch (error) {
      if (abort.signal.aborted) setStatus({ phase: "cancelled" });
      else setStatus({ phase: "failed", message: "The export stopped before the end (the connection or the EMS API failed); nothing was saved. Please try again." });
      void error;
    } finally {
      controller.current = null;
    }
  }

  const running = status.phase === "running";
  const statusText =
    status.phase === "running"
      ? `Exporting ${status.format.toUpperCase()}… ${status.rows.toLocaleString("en-US")}${status.total !== null ? ` of ${status.total.toLocaleString("en-US")}` : ""} rows${
          status.waitingSeconds !== null && status.waitingSeconds >= 5 ? ` (waiting for the EMS API for ${formatSeconds(status.waitingSeconds)})` : ""
        }`
      : status.phase === "done"
        ? `Exported ${status.rows.toLocaleString("en-US")} rows.${status.truncated ? ` ${status.matching.toLocaleString("en-US")} rows match; exports stop at ${maxRows.toLocaleString("en-US")}.` : ""}${
            hasHeaders ? (status.headerValues === "included" ? " Header values are included." : " Header values are hidden.") : ""
          }`
        : status.phase === "cancelled"
          ? "Export cancelled; nothing was saved."
          : status.phase === "failed"
            ? status.message
            : "";
  return (
    <div className="space-y-2" data-testid="export">
      <p className="font-semibold text-slate-900">Export all matching rows</p>
      <p className="text-xs text-slate-600">Every row these options match, not only this page (up to {maxRows.toLocaleString("en-US")}).</p>
      {hasHeaders ? (
        <div className="flex items-start gap-2 text-slate-800">
          <input
            id={checkboxId}
            type="checkbox"
            className="mt-1"
            checked={includeHeaderValues}
            disabled={running}
            onChange={(event) => setIncludeHeaderValues(event.target.checked)}
            aria-describedby={`${checkboxId}-hint`}
            data-testid="export-header-values"
          />
          <span>
            <label htmlFor={checkboxId}>Include header values</label>
            <span id={`${checkboxId}-hint`} className="block text-xs text-slate-600">
              They may hold API keys; recorded in the audit log.
            </span>
          </span>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" disabled={running} onClick={() => run("csv")} className={toolbarButton()} data-testid="export-csv">
          CSV
        </button>
        <button type="button" disabled={running} onClick={() => run("json")} className={toolbarButton()} data-testid="export-json">
          JSON
        </button>
        {running ? (
          <button
            type="button"
            onClick={() => controller.current?.abort()}
            className="ml-auto rounded-md border border-red-300 px-2 py-1 text-sm text-red-800 hover:bg-red-50"
            data-testid="export-cancel"
          >
            Cancel export
          </button>
        ) : null}
      </div>
      {running ? <progress max={status.total || 1} value={status.total ? status.rows : undefined} aria-label="Export progress" className="h-2 w-full" /> : null}
      <p role="status" aria-live="polite" className="text-sm text-slate-800 empty:hidden" data-testid="export-status">
        {statusText}
      </p>
    </div>
  );
}
