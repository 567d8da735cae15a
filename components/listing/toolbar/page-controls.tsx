"use client";

import { useId } from "react";
import { hrefOf, hrefWith, toSearchParams } from "@/lib/listing/href";
import { PER_PAGE_OPTIONS, listingConfig } from "@/lib/listing/resources";
import type { ListingState } from "@/lib/listing/search-params";
import { useListingNavigation } from "./listing-navigation";

const control = "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm";

/**
 * Rows per page and "go to page", in the pagination bar. One GET form, so both work without
 * JavaScript; with it, a change of rows per page applies at once and a page number on Enter, each
 * as one client navigation (a page past the last goes to the last).
 */
export function PageControls({ state, lastPage }: { state: ListingState; lastPage: number }) {
  const { navigate } = useListingNavigation();
  const id = useId();
  const config = listingConfig(state.resource);
  const keep = [...toSearchParams(state, { includePage: false }).entries()].filter(([key]) => key !== "per-page");
  return (
    <form
      method="get"
      action={config.path}
      className="flex flex-wrap items-center gap-2 text-sm text-slate-800"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const page = Math.min(Math.max(1, Math.trunc(Number(data.get("page")) || 1)), lastPage);
        navigate(hrefOf(state, { page }));
      }}
    >
      {keep.map(([key, value], i) => (
        <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
      ))}
      <label htmlFor={`${id}-per-page`}>Rows per page</label>
      <select
        id={`${id}-per-page`}
        name="per-page"
        value={String(state.perPage)}
        onChange={(e) => navigate(hrefWith(state, { perPage: Number(e.target.value) }))}
        className={control}
        data-testid="per-page"
      >
        {PER_PAGE_OPTIONS.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      {lastPage > 1 ? (
        <>
          <label htmlFor={`${id}-page`} className="ml-2">
            Go to page
          </label>
          <input id={`${id}-page`} name="page" type="number" min={1} max={lastPage} defaultValue={state.page} key={state.page} className={`${control} w-20`} />
        </>
      ) : null}
      {lastPage > 1 ? (
        <button type="submit" className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100">
          Go
        </button>
      ) : (
        // Rows per page applies on change with JavaScript; without it, this submits the form.
        <noscript>
          <button type="submit" className="rounded-md border border-slate-300 px-2 py-1">
            Apply
          </button>
        </noscript>
      )}
    </form>
  );
}
