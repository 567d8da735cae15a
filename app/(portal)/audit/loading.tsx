// The page's shape (title, the filter box, a list of entries), so nothing jumps when it arrives.
export default function AuditLoading() {
  return (
    <div role="status" aria-live="polite" className="space-y-6">
      <span className="sr-only">Loading the audit log…</span>
      <div aria-hidden className="space-y-2">
        <div className="h-8 w-40 animate-pulse rounded bg-slate-200" />
        <div className="h-4 w-72 max-w-full animate-pulse rounded bg-slate-100" />
      </div>
      <div aria-hidden className="grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-3 sm:p-4 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="space-y-2">
            <div className="h-4 w-20 animate-pulse rounded bg-slate-100" />
            <div className="h-9 animate-pulse rounded-md bg-slate-100" />
          </div>
        ))}
      </div>
      <div aria-hidden className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:justify-between">
            <div className="h-4 w-3/4 animate-pulse rounded bg-slate-100 sm:w-1/2" />
            <div className="h-4 w-48 animate-pulse rounded bg-slate-100" />
          </div>
        ))}
      </div>
    </div>
  );
}
