/**
 * A header value hidden until asked for (they often hold API keys): a native disclosure, so it
 * works from the keyboard and with no script.
 */
export function HiddenValue({ label, value }: { label: string; value: string }) {
  return (
    <details className="inline-block align-top">
      <summary className="cursor-pointer text-brand-700 underline" aria-label={`Reveal the value of ${label}`}>
        Reveal
      </summary>
      <code className="break-all bg-slate-100 px-1 text-xs" data-testid="header-value">
        {value}
      </code>
    </details>
  );
}

export function HeaderList({ headers }: { headers: unknown }) {
  const list = Array.isArray(headers) ? (headers as { key?: unknown; value?: unknown }[]) : [];
  if (list.length === 0) return <span className="text-slate-500">None</span>;
  return (
    <ul className="space-y-1 [&>li]:flex [&>li]:flex-wrap [&>li]:items-baseline [&>li]:gap-2 [&_b]:font-mono [&_b]:text-xs">
      {list.map((header, index) => {
        const key = String(header.key ?? "");
        return (
          <li key={`${key}-${index}`}>
            <b>{key}</b>
            {/* No value at all: a past state from change history, which never shows header values. */}
            {header.value === undefined ? <span className="text-xs text-slate-500">value not shown</span> : <HiddenValue label={key} value={String(header.value ?? "")} />}
          </li>
        );
      })}
    </ul>
  );
}
