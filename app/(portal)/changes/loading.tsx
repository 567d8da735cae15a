export default function Loading() {
  return (
    <div className="space-y-4" aria-busy="true" aria-live="polite">
      <h1 className="text-2xl font-semibold">Changes</h1>
      <p className="sr-only">Loading the changes…</p>
      <div className="h-24 animate-pulse rounded-lg bg-slate-100" />
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="h-14 animate-pulse rounded-lg bg-slate-100" />
      ))}
    </div>
  );
}
