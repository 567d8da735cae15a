import Link from "next/link";
import { MAX_IDS } from "@/lib/listing/ids";
import { formatFilter } from "@/lib/listing/filters";
import { formatSort } from "@/lib/listing/href";
import { PER_PAGE_OPTIONS, fieldLabel, listingConfig } from "@/lib/listing/resources";
import type { ListingState } from "@/lib/listing/search-params";

const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";

/**
 * The listing's options for a browser without JavaScript, on the list's options page
 * (listing-options-page.tsx; the list links there from a <noscript>): one GET form to the list
 * whose submit writes every option into the address (proxy.ts then shortens it with one redirect).
 * Filters are written the way the API writes a condition (`name=*contains*sync`). With JavaScript,
 * the toolbar does all of this and this form is never rendered.
 */
export function ListingControls({ state }: { state: ListingState }) {
  const config = listingConfig(state.resource);
  const base = `${state.resource}-nojs`;
  return (
    <form
      method="get"
      action={config.path}
      className="space-y-3 rounded-md border border-slate-200 bg-white p-4 text-sm"
      aria-label={`${config.title} options`}
      data-testid="listing-controls"
    >
      <fieldset className="space-y-1">
        <legend className="font-semibold text-slate-900">Filters</legend>
        <p className="text-xs text-slate-600">
          One condition per box, written as the EMS API writes it, e.g. name=*contains*sync or id&gt;=100. Leave a box empty to drop it.
        </p>
        {[...state.filters.map(formatFilter), ""].map((value, i) => (
          <input key={i} name="filter" defaultValue={value} aria-label={`Filter ${i + 1}`} className={`${input} block w-full max-w-md font-mono`} />
        ))}
        <label className="flex items-center gap-2">
          Rows must match
          <select name="searchCondition" defaultValue={state.searchCondition} className={input}>
            <option value="and">all filters</option>
            <option value="or">any filter</option>
          </select>
        </label>
      </fieldset>
      <fieldset>
        <legend className="font-semibold text-slate-900">Columns</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {config.fields.map((field) => (
            <label key={field} className="flex items-center gap-1">
              <input type="checkbox" name="fields" value={field} defaultChecked={state.fields.includes(field)} />
              {fieldLabel(config, field)}
            </label>
          ))}
          {config.expandable.includes("webhooks") ? (
            <label className="flex items-center gap-1 font-medium">
              <input type="checkbox" name="expand" value="webhooks" defaultChecked={state.expand.includes("webhooks")} />
              Show webhooks
            </label>
          ) : null}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-end gap-4">
        <label className="flex flex-col">
          <span className="font-semibold text-slate-900">Only these ids</span>
          <textarea
            id={`${base}-ids`}
            name="ids"
            rows={2}
            defaultValue={state.idsText}
            placeholder={`Up to ${MAX_IDS}, e.g. 12, 15, 40`}
            className={`${input} font-mono`}
          />
        </label>
        <label className="flex items-center gap-2">
          <span className="font-semibold text-slate-900">Rows per page</span>
          <select name="per-page" defaultValue={String(state.perPage)} className={input}>
            {PER_PAGE_OPTIONS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </div>
      {state.sort.length > 0 ? <input type="hidden" name="sort" value={formatSort(state.sort)} /> : null}
      {state.view ? <input type="hidden" name="view" value={state.view} /> : null}
      <div className="flex items-center gap-3">
        <button type="submit" className="rounded bg-brand-600 px-3 py-1.5 font-medium text-white">
          Apply
        </button>
        <Link href={`${config.path}?view=none`} prefetch={false} className="text-brand-700 underline">
          Reset all options
        </Link>
      </div>
    </form>
  );
}
