/** The title of a Settings section's page, and a line on what it is for. */
export function SettingsHeading({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {children ? <p className="mt-1 max-w-3xl text-sm text-slate-600">{children}</p> : null}
    </div>
  );
}
