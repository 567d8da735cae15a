"use client";

import { startTransition, useOptimistic } from "react";
import { ArrowDown, ArrowUp, Columns3 } from "lucide-react";
import { hrefOf } from "@/lib/listing/href";
import { fieldLabel, listingConfig } from "@/lib/listing/resources";
import type { ListingState } from "@/lib/listing/search-params";
import { Popover } from "@/components/ui/popover";
import { useListingNavigation } from "./listing-navigation";
import { popoverPanel, toolbarButton } from "./styles";

/**
 * Show, hide and reorder columns; each change applies at once and stays on the same page (the rows
 * are the same ones). The last shown column cannot be hidden: a table of no columns is no answer.
 */
export function ColumnsMenu({ state: current }: { state: ListingState }) {
  const { navigate } = useListingNavigation();
  // Ticks and order move at once; the rows follow when the server answers.
  const [state, setOptimistic] = useOptimistic(current, (previous, patch: Partial<ListingState>) => ({ ...previous, ...patch }));
  const config = listingConfig(state.resource);
  const hidden = config.fields.filter((f) => !state.fields.includes(f));
  const canExpand = config.expandable.includes("webhooks");
  const change = (patch: Partial<ListingState>) =>
    startTransition(() => {
      setOptimistic(patch);
      navigate(hrefOf(state, patch));
    });
  const setFields = (fields: string[]) => change({ fields });
  const move = (index: number, by: -1 | 1) => {
    const fields = [...state.fields];
    [fields[index], fields[index + by]] = [fields[index + by], fields[index]];
    setFields(fields);
  };
  const isDefault = state.fields.join(",") === config.defaultFields.join(",");

  return (
    <Popover
      align="end"
      className={`${popoverPanel} w-72`}
      aria-label="Columns"
      trigger={(props) => (
        <button type="button" {...props} className={toolbarButton()} data-testid="columns-menu">
          <Columns3 aria-hidden className="size-4" />
          <span className="max-sm:sr-only">Columns</span>
          {state.expand.includes("webhooks") ? <span className="text-xs text-slate-600 max-sm:sr-only">+ webhooks</span> : null}
        </button>
      )}
    >
      <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-600">Shown, in order</p>
      <ul className="space-y-1" data-testid="shown-columns">
        {state.fields.map((field, index) => (
          <li key={field} className="flex items-center gap-2">
            <label className="flex min-w-0 flex-1 items-center gap-2">
              <input
                type="checkbox"
                checked
                disabled={state.fields.length === 1}
                title={state.fields.length === 1 ? "At least one column is shown" : undefined}
                onChange={() => setFields(state.fields.filter((f) => f !== field))}
              />
              <span className="truncate">{fieldLabel(config, field)}</span>
            </label>
            <button
              type="button"
              className="rounded p-1 text-slate-600 hover:bg-slate-100 disabled:opacity-30"
              disabled={index === 0}
              onClick={() => move(index, -1)}
              aria-label={`Move ${fieldLabel(config, field)} left`}
            >
              <ArrowUp aria-hidden className="size-3.5" />
            </button>
            <button
              type="button"
              className="rounded p-1 text-slate-600 hover:bg-slate-100 disabled:opacity-30"
              disabled={index === state.fields.length - 1}
              onClick={() => move(index, 1)}
              aria-label={`Move ${fieldLabel(config, field)} right`}
            >
              <ArrowDown aria-hidden className="size-3.5" />
            </button>
          </li>
        ))}
      </ul>
      {state.fields.length === 1 ? <p className="mt-1 text-xs text-slate-600">At least one column is shown.</p> : null}
      {hidden.length > 0 ? (
        <>
          <p className="mb-2 mt-3 text-xs font-semibold uppercase tracking-wide text-slate-600">Hidden</p>
          <ul className="space-y-1" data-testid="hidden-columns">
            {hidden.map((field) => (
              <li key={field}>
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={false} onChange={() => setFields([...state.fields, field])} />
                  {fieldLabel(config, field)}
                </label>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {canExpand ? (
        <label className="mt-3 flex items-center gap-2 border-t border-slate-200 pt-3 font-medium">
          <input
            type="checkbox"
            checked={state.expand.includes("webhooks")}
            onChange={(e) => change({ expand: e.target.checked ? ["webhooks"] : [] })}
            data-testid="show-webhooks"
          />
          Show each group&apos;s webhooks
        </label>
      ) : null}
      {!isDefault ? (
        <button type="button" className="mt-3 text-brand-700 underline" onClick={() => setFields([...config.defaultFields])}>
          Reset to the default columns
        </button>
      ) : null}
    </Popover>
  );
}
