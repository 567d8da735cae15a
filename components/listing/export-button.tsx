"use client";
import { lazy, Suspense, useState } from "react";
import { Download, LoaderCircle } from "lucide-react";
import { Popover } from "@/components/ui/popover";
import type { ExportStatus } from "./export-panel";
import { popoverPanel, toolbarButton } from "./toolbar/styles";

// The export's code (its run, progress and file) loads on the first sign that the panel will open,
// with the popover's own code: most views of a list export nothing (issue 38).
const loadPanel = () => import("./export-panel");
const ExportPanel = lazy(() => loadPanel().then((module) => ({ default: module.ExportPanel })));

/**
 * Export of every matching row (not only this page) as CSV or JSON, with progress and cancel: a
 * button of the listing's toolbar and its small panel (./export-panel.tsx; the export goes on when
 * the panel closes, and the button says so).
 * The server streams events (lib/listing/export-events.ts): the pieces of the file, and heartbeats
 * while it waits for the EMS API; the panel shows the progress and saves the file at the end.
 * Webhook header values are hidden in the file unless the box is ticked (which the audit log records).
 */
export function ExportButton({ resource, search, maxRows }: { resource: string; search: string; maxRows: number }) {
  const [status, setStatus] = useState<ExportStatus>({ phase: "idle" });
  const [open, setOpen] = useState(false);
  const running = status.phase === "running";
  return (
    <Popover
      align="end"
      className={`${popoverPanel} w-80`}
      aria-label="Export"
      open={open}
      onOpenChange={setOpen}
      trigger={(props) => (
        <button
          type="button"
          {...props}
          onPointerEnter={(event) => {
            void loadPanel();
            props.onPointerEnter?.(event);
          }}
          onFocus={(event) => {
            void loadPanel();
            props.onFocus?.(event);
          }}
          className={toolbarButton({ broken: status.phase === "failed" })}
          data-testid="export-menu"
        >
          {running ? <LoaderCircle aria-hidden className="size-4 animate-spin motion-reduce:animate-none" /> : <Download aria-hidden className="size-4" />}
          <span className="max-sm:sr-only">{running ? "Exporting…" : "Export"}</span>
        </button>
      )}
    >
      <Suspense fallback={<p className="text-slate-600">Loading…</p>}>
        <ExportPanel resource={resource} search={search} maxRows={maxRows} status={status} setStatus={setStatus} />
      </Suspense>
    </Popover>
  );
}
