export default function TeamLoading() {
  return (
    <div role="status" aria-live="polite" className="space-y-4">
      <span className="sr-only">Loading the team…</span>
      <div aria-hidden className="h-8 w-32 animate-pulse rounded bg-slate-200" />
      <div aria-hidden className="h-64 animate-pulse rounded-xl bg-slate-100" />
    </div>
  );
}
