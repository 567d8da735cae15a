/** While the account's setup is read (two listings or more): the page's frame, quietly pulsing. */
export function SetupSkeleton({ title }: { title: string }) {
  return (
    <div className="space-y-6" aria-busy="true" data-testid="setup-loading">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p role="status" className="text-sm text-slate-600">
        Reading your webhook groups and events…
      </p>
      <div className="space-y-3" aria-hidden>
        {[0, 1, 2].map((row) => (
          <div key={row} className="h-24 animate-pulse rounded-lg border border-slate-200 bg-slate-100" />
        ))}
      </div>
    </div>
  );
}
