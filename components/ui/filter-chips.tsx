import Link from "next/link";

export interface FilterChip {
  /** what the filter keeps, in words: "Group 123", "Severity: error" */
  label: string;
  /** the same page without this filter */
  removeHref: string;
}

/**
 * The filters in force as chips, each with its own ×, and "Clear all": what the list shows is
 * readable at a glance and undone in one click. Links, so they work without JavaScript.
 */
export function FilterChips({ chips, clearHref, testId }: { chips: readonly FilterChip[]; clearHref: string; testId?: string }) {
  if (chips.length === 0) return null;
  return (
    <ul className="flex min-w-0 max-w-full flex-wrap items-center gap-1.5 text-xs" aria-label="Filters in force" data-testid={testId}>
      {chips.map((chip) => (
        <li
          key={chip.label}
          className="inline-flex min-w-0 max-w-full items-center rounded-full bg-brand-50 py-0.5 pl-2.5 pr-1 text-brand-800 ring-1 ring-inset ring-brand-200"
        >
          <span className="truncate">{chip.label}</span>
          <Link
            href={chip.removeHref}
            className="ml-1 grid size-5 shrink-0 place-items-center rounded-full hover:bg-brand-100"
            aria-label={`Remove the filter ${chip.label}`}
            data-testid="filter-chip-remove"
          >
            <span aria-hidden>×</span>
          </Link>
        </li>
      ))}
      {chips.length > 1 ? (
        <li>
          <Link href={clearHref} className="rounded px-1.5 py-0.5 text-slate-600 underline underline-offset-2 hover:text-slate-900">
            Clear all
          </Link>
        </li>
      ) : null}
    </ul>
  );
}
