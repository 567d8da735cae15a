export default function SettingsLoading() {
  return (
    <div role="status" aria-live="polite" className="space-y-4">
      <span className="sr-only">Loading settings…</span>
      <div aria-hidden className="h-8 w-40 animate-pulse rounded bg-slate-200" />
      <div aria-hidden className="h-48 animate-pulse rounded-xl bg-slate-100" />
    </div>
  );
}
