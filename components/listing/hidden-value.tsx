/**
 * A header value hidden until asked for (they often hold API keys): a native disclosure, so it
 * works from the keyboard and with no script.
 */
export function HiddenValue({ label, value }: { label: string; value: string }) {
  return (
    <details className="group inline-block align-top">
      <summary className="cursor-pointer select-none text-brand-700 underline decoration-dotted">
        <span className="group-open:hidden">Reveal</span>
        <span className="hidden group-open:inline">Hide</span>
        <span className="sr-only"> value of {label}</span>
      </summary>
      <code className="break-all rounded bg-slate-100 px-1 text-xs text-slate-900" data-testid="header-value">
        {value}
      </code>
    </details>
  );
}

export function HeaderList({ headers }: { headers: unknown }) {
  const list = Array.isArray(headers) ? (headers as { key?: unknown; value?: unknown }[]) : [];
  if (list.length === 0) return <span className="text-slate-500">None</span>;
  return (
    <ul className="space-y-1">
      {list.map((header, index) => {
        const key = String(header.key ?? "");
        return (
          <li key={`${key}-${index}`} className="flex flex-wrap items-baseline gap-2">
            <code className="text-xs font-semibold text-slate-900">{key}</code>
            <HiddenValue label={key} value={String(header.value ?? "")} />
          </li>
        );
      })}
    </ul>
  );
}
