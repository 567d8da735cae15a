"use client";

import { useId, useState } from "react";
import { Search, X } from "lucide-react";
import type { ListingState } from "@/lib/listing/search-params";
import { TEXT_SEARCH_PLACEHOLDER, textSearchHref, textSearchOf, textSearchProblem } from "@/lib/listing/text-search";
import { useListingNavigation } from "./listing-navigation";

/**
 * The list's search box: what the palette searches (lib/listing/text-search.ts), so both count the
 * same records. Enter searches, Escape or × clears. A search takes the place of the list's other
 * conditions (the EMS cannot join some with AND and the rest with OR); the box says so before.
 */
export function SearchBox({ state }: { state: ListingState }) {
  const { navigate } = useListingNavigation();
  const id = useId();
  const searching = textSearchOf(state);
  const [text, setText] = useState(searching ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const replaces = searching === null ? state.filters.length : 0;

  const search = (next: string) => {
    const trimmed = next.trim();
    const found = trimmed ? textSearchProblem(trimmed) : null;
    setProblem(found);
    if (!found && trimmed !== (searching ?? "")) navigate(textSearchHref(state, trimmed));
  };

  return (
    <form
      role="search"
      className="relative w-full sm:w-64"
      onSubmit={(event) => {
        event.preventDefault();
        search(text);
      }}
    >
      <label htmlFor={`${id}-search`} className="sr-only">
        {TEXT_SEARCH_PLACEHOLDER[state.resource]}
      </label>
      <Search aria-hidden className="pointer-events-none absolute left-2 top-1.5 size-4 text-slate-400" />
      <input
        id={`${id}-search`}
        type="search"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setProblem(null);
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape" && text) {
            event.preventDefault();
            setText("");
            search("");
          }
        }}
        placeholder={TEXT_SEARCH_PLACEHOLDER[state.resource]}
        enterKeyHint="search"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem || (replaces > 0 && text.trim()) ? `${id}-note` : undefined}
        className="w-full rounded-md border border-slate-300 bg-white py-1 pl-8 pr-7 text-sm placeholder:text-slate-500 aria-invalid:border-red-600 [&::-webkit-search-cancel-button]:hidden"
        data-testid="listing-search"
      />
      {text ? (
        <button
          type="button"
          className="absolute right-1.5 top-1.5 rounded text-slate-500 hover:text-slate-900"
          aria-label="Clear the search"
          onClick={() => {
            setText("");
            search("");
          }}
        >
          <X aria-hidden className="size-4" />
        </button>
      ) : null}
      {problem ? (
        <p id={`${id}-note`} role="alert" className="mt-1 text-xs text-red-700" data-testid="listing-search-problem">
          {problem}
        </p>
      ) : replaces > 0 && text.trim() ? (
        <p id={`${id}-note`} className="mt-1 text-xs text-slate-600">
          Enter searches instead of the {replaces === 1 ? "filter" : `${replaces} filters`}.
        </p>
      ) : null}
    </form>
  );
}
