/** What the table area shows while the EMS API answers (streamed in its place). */
export function TableSkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <div role="status" aria-live="polite" data-testid="listing-loading" className="animate-pulse space-y-2">
      <span className="sr-only">Loading from the EMS API…</span>
      <div className="h-8 rounded bg-slate-200" />
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-6 rounded bg-slate-100" />
      ))}
    </div>
  );
}
