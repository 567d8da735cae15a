import Link from "next/link";
import { operatorLabel } from "@/lib/listing/filters";
import { MAX_IDS } from "@/lib/listing/ids";
import { OPERATORS_BY_TYPE, type FieldType } from "@/lib/ems/contract";
import { PER_PAGE_OPTIONS, fieldLabel, listingConfig } from "@/lib/listing/resources";
import { formatSort, type ListingState } from "@/lib/listing/search-params";
import { FilterBuilder, type FilterFieldOption, type OperatorOption } from "./filter-builder";

/**
 * The options of a listing as one GET form: submitting it writes every option into the URL
 * (shareable, and the back button walks through them). The sort order is kept; the page resets.
 */
export function ListingControls({ state }: { state: ListingState }) {
  const config = listingConfig(state.resource);
  const filterFields: FilterFieldOption[] = Object.entries(config.searchable).map(([name, type]) => ({
    name,
    type,
    label: fieldLabel(config, name),
  }));
  const operators = Object.fromEntries(
    (Object.keys(OPERATORS_BY_TYPE) as FieldType[]).map((type) => [
      type,
      OPERATORS_BY_TYPE[type].map((value): OperatorOption => ({ value, label: operatorLabel(value, type) })),
    ]),
  ) as Record<FieldType, OperatorOption[]>;
  const idsErrorId = `${state.resource}-ids-errors`;

  return (
    <form method="get" action={config.path} className="space-y-4 rounded-md border border-slate-200 bg-white p-4" data-testid="listing-controls" aria-label={`${config.title} options`}>
      <div className="grid gap-4 md:grid-cols-2">
        <fieldset>
          <legend className="text-sm font-semibold text-slate-900">Columns</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {config.fields.map((field) => (
              <label key={field} className="flex items-center gap-1 text-sm">
                <input type="checkbox" name="fields" value={field} defaultChecked={state.fields.includes(field)} />
                {fieldLabel(config, field)}
              </label>
            ))}
          </div>
          {config.expandable.includes("webhooks") ? (
            <label className="mt-2 flex items-center gap-1 text-sm font-medium">
              <input type="checkbox" name="expand" value="webhooks" defaultChecked={state.expand.includes("webhooks")} data-testid="show-webhooks" />
              Show webhooks
            </label>
          ) : null}
        </fieldset>
        <div className="space-y-3">
          <div className="flex flex-col">
            <label htmlFor={`${state.resource}-ids`} className="text-sm font-semibold text-slate-900">
              Only these ids
            </label>
            <textarea
              id={`${state.resource}-ids`}
              name="ids"
              rows={2}
              defaultValue={state.idsText}
              placeholder="e.g. 12, 15, 40 (up to 100; commas, spaces or new lines)"
              aria-invalid={state.idsErrors.length > 0 ? true : undefined}
              aria-describedby={state.idsErrors.length > 0 ? idsErrorId : `${state.resource}-ids-hint`}
              className="rounded border border-slate-300 px-2 py-1 font-mono text-sm aria-invalid:border-red-600"
              data-testid="ids-input"
            />
            {state.idsErrors.length > 0 ? (
              <div id={idsErrorId} role="alert" className="mt-1 text-sm text-red-700" data-testid="ids-errors">
                <p>These ids were not applied:</p>
                <ul className="list-disc pl-5">
                  {state.idsErrors.map((error, i) => (
                    <li key={i}>{error}</li>
                  ))}
                </ul>
              </div>
            ) : (
              <p id={`${state.resource}-ids-hint`} className="mt-1 text-xs text-slate-600">
                Positive whole numbers, at most {MAX_IDS}.
              </p>
            )}
          </div>
          <div className="flex items-center gap-2">
            <label htmlFor={`${state.resource}-per-page`} className="text-sm font-semibold text-slate-900">
              Rows per page
            </label>
            <select id={`${state.resource}-per-page`} name="per-page" defaultValue={String(state.perPage)} className="rounded border border-slate-300 px-2 py-1 text-sm" data-testid="per-page">
              {PER_PAGE_OPTIONS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      <FilterBuilder fields={filterFields} operators={operators} initial={state.filters} initialMatch={state.searchCondition} />
      {state.sort.length > 0 ? <input type="hidden" name="sort" value={formatSort(state.sort)} /> : null}
      {state.view ? <input type="hidden" name="view" value={state.view} /> : null}
      <div className="flex items-center gap-3">
        <button type="submit" className="rounded bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-600" data-testid="apply-options">
          Apply
        </button>
        <Link href={`${config.path}?view=none`} prefetch={false} className="text-sm text-brand-700 underline">
          Reset all options
        </Link>
      </div>
    </form>
  );
}
