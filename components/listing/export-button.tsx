"use client";
import { useRef, useState } from "react";

type Status =
  | { phase: "idle" }
  | { phase: "running"; format: "csv" | "json"; rows: number; total: number | null }
  | { phase: "done"; rows: number; truncated: boolean; matching: number }
  | { phase: "cancelled" }
  | { phase: "failed"; message: string };

/** Counts finished records in a CSV/JSON stream: new lines outside quoted CSV cells. */
function newlineCounter(format: "csv" | "json") {
  let quoted = false;
  return (text: string) => {
    let lines = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (format === "csv" && ch === 34) quoted = !quoted;
      else if (ch === 10 && !quoted) lines++;
    }
    return lines;
  };
}

/**
 * Export of every matching row (not only this page) as CSV or JSON, with progress and cancel.
 * The server streams the file; this island reads it so it can show progress, then saves it.
 */
export function ExportButton({ resource, search, maxRows }: { resource: string; search: string; maxRows: number }) {
  const [status, setStatus] = useState<Status>({ phase: "idle" });
  const controller = useRef<AbortController | null>(null);

  async function run(format: "csv" | "json") {
    const abort = new AbortController();
    controller.current = abort;
    setStatus({ phase: "running", format, rows: 0, total: null });
    try {
      const params = new URLSearchParams(search);
      params.set("format", format);
      const response = await fetch(`/api/export/${resource}?${params.toString()}`, { signal: abort.signal });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { error?: string } | null;
        setStatus({ phase: "failed", message: body?.error ?? `The export failed (${response.status}).` });
        return;
      }
      const total = Number(response.headers.get("X-Export-Total") ?? "0");
      const matching = Number(response.headers.get("X-Export-Matching") ?? String(total));
      const truncated = response.headers.get("X-Export-Truncated") === "1";
      const count = newlineCounter(format);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const chunks: BlobPart[] = [];
      let lines = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        chunks.push(value);
        lines += count(decoder.decode(value, { stream: true }));
        // CSV: the first line is the header; JSON: the first line is "[".
        setStatus({ phase: "running", format, rows: Math.min(total, Math.max(0, lines - 1)), total });
      }
      const blob = new Blob(chunks, { type: format === "csv" ? "text/csv" : "application/json" });
      const disposition = response.headers.get("Content-Disposition") ?? "";
      const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${resource}.${format}`;
      const href = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = href;
      link.download = filename;
      link.dataset.testid = "export-download";
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      setStatus({ phase: "done", rows: total, truncated, matching });
    } catch (error) {
      if (abort.signal.aborted) setStatus({ phase: "cancelled" });
      else setStatus({ phase: "failed", message: "The export stopped before the end (the connection or the EMS API failed); nothing was saved. Please try again." });
      void error;
    } finally {
      controller.current = null;
    }
  }

  const running = status.phase === "running";
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="export">
      <span className="text-sm font-semibold text-slate-900">Export all matching rows:</span>
      <button type="button" disabled={running} onClick={() => run("csv")} className="rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 disabled:opacity-50" data-testid="export-csv">
        CSV
      </button>
      <button type="button" disabled={running} onClick={() => run("json")} className="rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 disabled:opacity-50" data-testid="export-json">
        JSON
      </button>
      {running ? (
        <>
          <progress
            max={status.total || 1}
            value={status.total ? status.rows : undefined}
            aria-label="Export progress"
            className="h-2 w-40"
          />
          <button type="button" onClick={() => controller.current?.abort()} className="rounded border border-red-300 px-2 py-1 text-sm text-red-800 hover:bg-red-50" data-testid="export-cancel">
            Cancel export
          </button>
        </>
      ) : null}
      <p role="status" aria-live="polite" className="basis-full text-sm text-slate-800" data-testid="export-status">
        {status.phase === "running"
          ? `Exporting ${status.format.toUpperCase()}… ${status.rows.toLocaleString("en-US")}${status.total !== null ? ` of ${status.total.toLocaleString("en-US")}` : ""} rows`
          : status.phase === "done"
            ? `Exported ${status.rows.toLocaleString("en-US")} rows.${status.truncated ? ` ${status.matching.toLocaleString("en-US")} rows match; exports stop at ${maxRows.toLocaleString("en-US")}.` : ""}`
            : status.phase === "cancelled"
              ? "Export cancelled; nothing was saved."
              : status.phase === "failed"
                ? status.message
                : ""}
      </p>
    </div>
  );
}
