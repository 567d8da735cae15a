"use client";

import { useId } from "react";
import { ArrowDownUp, X } from "lucide-react";
import type { SortKey } from "@/lib/ems/contract";
import { hrefWith } from "@/lib/listing/href";
import { MAX_SORT_LEVELS, fieldLabel, listingConfig } from "@/lib/listing/resources";
import type { ListingState } from "@/lib/listing/search-params";
import { DEFAULT_ORDER_WORDS, directionInWords, sortInWords } from "@/lib/listing/words";
import { Popover } from "@/components/ui/popover";
import { useListingNavigation } from "./listing-navigation";
import { popoverPanel, toolbarButton } from "./styles";

/**
 * The sort in words ("Starts, newest first; then Name A–Z"), and a small editor of its levels: flip
 * a level, remove it, add one. Headers do the same by click and shift-click.
 */
export function SortMenu({ state }: { state: ListingState }) {
  const { navigate } = useListingNavigation();
  const id = useId();
  const config = listingConfig(state.resource);
  const setSort = (sort: SortKey[]) => navigate(hrefWith(state, { sort }));
  const unused = config.sortable.filter((f) => !state.sort.some((s) => s.field === f));
  const words = sortInWords(state.resource, state.sort);

  return (
    <Popover
      align="end"
      className={`${popoverPanel} w-80`}
      aria-label="Sort"
      trigger={(props) => (
        <button type="button" {...props} className={toolbarButton({ className: "max-w-full" })} data-testid="sort-menu" title={words}>
          <ArrowDownUp aria-hidden className="size-4 shrink-0" />
          <span className="truncate max-sm:sr-only">
            <span className="sr-only">Sort: </span>
            {words}
          </span>
          <span aria-hidden className="sm:hidden">
            Sort
          </span>
        </button>
      )}
    >
      <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-600">Sort by</p>
      {state.sort.length === 0 ? <p className="text-slate-700">{DEFAULT_ORDER_WORDS}.</p> : null}
      <ol className="space-y-1" data-testid="sort-levels">
        {state.sort.map((key, index) => {
          const label = fieldLabel(config, key.field);
          return (
            <li key={key.field} className="flex items-center gap-2">
              <span className="w-10 shrink-0 text-xs text-slate-600">{index === 0 ? "Sort" : "then"}</span>
              <span className="min-w-0 flex-1 truncate font-medium">{label}</span>
              <button
                type="button"
                className="rounded border border-slate-300 px-1.5 py-0.5 text-xs hover:bg-slate-100"
                onClick={() => setSort(state.sort.map((s, i) => (i === index ? { ...s, direction: s.direction === "asc" ? "desc" : "asc" } : s)))}
                aria-label={`${label}: ${directionInWords(key.field, key.direction)}; change to ${directionInWords(key.field, key.direction === "asc" ? "desc" : "asc")}`}
              >
                {directionInWords(key.field, key.direction)}
              </button>
              <button
                type="button"
                className="rounded p-1 text-slate-600 hover:bg-slate-100"
                onClick={() => setSort(state.sort.filter((_, i) => i !== index))}
                aria-label={`Stop sorting by ${label}`}
              >
                <X aria-hidden className="size-3.5" />
              </button>
            </li>
          );
        })}
      </ol>
      {state.sort.length < MAX_SORT_LEVELS && unused.length > 0 ? (
        <div className="mt-3 flex items-center gap-2">
          <label htmlFor={`${id}-add`} className="shrink-0 text-xs text-slate-700">
            {state.sort.length === 0 ? "Sort by" : "Then by"}
          </label>
          <select
            id={`${id}-add`}
            value=""
            onChange={(e) => e.target.value && setSort([...state.sort, { field: e.target.value, direction: "asc" }])}
            className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          >
            <option value="">Choose a column…</option>
            {unused.map((field) => (
              <option key={field} value={field}>
                {fieldLabel(config, field)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {state.sort.length > 0 ? (
        <button type="button" className="mt-3 text-brand-700 underline" onClick={() => setSort([])}>
          Back to the default order
        </button>
      ) : null}
      <p className="mt-3 border-t border-slate-200 pt-2 text-xs text-slate-600">Tip: click a column header to sort by it; shift-click to add it as the next level.</p>
    </Popover>
  );
}
