/** What was ignored in the address, and why: the page still renders with the defaults for it. */
export function Notices({ notices }: { notices: string[] }) {
  if (notices.length === 0) return null;
  return (
    <div
      role="note"
      aria-label="Options that were ignored"
      data-testid="listing-notices"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900"
    >
      <ul className="list-disc space-y-1 pl-5">
        {notices.map((notice, i) => (
          <li key={i}>{notice}</li>
        ))}
      </ul>
    </div>
  );
}
