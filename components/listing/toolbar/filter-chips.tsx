"use client";

import { useRef, useState } from "react";
import { ListFilter, Plus, X } from "lucide-react";
import type { FilterCondition } from "@/lib/listing/filters";
import { filterFieldsOf } from "@/lib/listing/filter-fields";
import { hrefWith } from "@/lib/listing/href";
import { MAX_SEARCH_CONDITIONS } from "@/lib/ems/contract";
import type { ListingState } from "@/lib/listing/search-params";
import { filterInWords } from "@/lib/listing/words";
import { Popover } from "@/components/ui/popover";
import { FilterEditor } from "./filter-editor";
import { useListingNavigation } from "./listing-navigation";
import { popoverPanel } from "./styles";

/**
 * The filters as chips ("Name contains sync ×"): click a chip to edit it in a popover, × to remove
 * it, "+ Filter" to add one (`f` anywhere on the page). Every change is applied at once.
 */
export function FilterChips({
  state,
  addOpen,
  onAddOpenChange,
  ref,
}: {
  state: ListingState;
  addOpen: boolean;
  onAddOpenChange: (open: boolean) => void;
  ref?: React.Ref<HTMLDivElement>;
}) {
  const { navigate } = useListingNavigation();
  const addButton = useRef<HTMLButtonElement>(null);
  const fields = filterFieldsOf(state.resource);
  const apply = (filters: FilterCondition[]) => navigate(hrefWith(state, { filters }));
  const full = state.filters.length >= MAX_SEARCH_CONDITIONS;

  return (
    <div ref={ref} className="flex flex-wrap items-center gap-2" data-testid="filter-chips">
      {state.filters.map((filter, index) => (
        <FilterChip
          key={`${index}:${filter.field}${filter.operator}${filter.value}`}
          state={state}
          index={index}
          onApply={(condition) => apply(state.filters.map((f, i) => (i === index ? condition : f)))}
          onRemove={() => {
            apply(state.filters.filter((_, i) => i !== index));
            // The chip is gone: the focus goes on to "+ Filter", not to the top of the page.
            addButton.current?.focus();
          }}
        />
      ))}
      <Popover
        open={addOpen}
        onOpenChange={onAddOpenChange}
        triggerRef={addButton}
        align="start"
        className={popoverPanel}
        aria-label="Add a filter"
        trigger={(props) => (
          <button
            type="button"
            {...props}
            disabled={full}
            title={full ? `At most ${MAX_SEARCH_CONDITIONS} filters` : "Add a filter (f)"}
            className="inline-flex items-center gap-1 rounded-full border border-dashed border-slate-400 px-2.5 py-1 text-sm text-slate-700 hover:border-slate-500 hover:bg-white disabled:opacity-50"
            data-testid="add-filter"
          >
            <Plus aria-hidden className="size-3.5" />
            Filter
          </button>
        )}
      >
        <FilterEditor
          fields={fields}
          initial={{ field: fields[0].name, operator: fields[0].operators[0].value, value: "" }}
          submitLabel="Add filter"
          onApply={(condition) => {
            onAddOpenChange(false);
            apply([...state.filters, condition]);
          }}
        />
      </Popover>
      {state.filters.length > 1 ? <MatchToggle state={state} /> : null}
    </div>
  );
}

function FilterChip({ state, index, onApply, onRemove }: { state: ListingState; index: number; onApply: (c: FilterCondition) => void; onRemove: () => void }) {
  const [open, setOpen] = useState(false);
  const filter = state.filters[index];
  const words = filterInWords(state.resource, filter);
  return (
    <span className="inline-flex max-w-full items-center rounded-2xl border border-brand-100 bg-brand-50 text-sm text-slate-800" data-testid="filter-chip">
      <Popover
        open={open}
        onOpenChange={setOpen}
        align="start"
        className={popoverPanel}
        aria-label={`Edit filter: ${words.text}`}
        trigger={(props) => (
          <button
            type="button"
            {...props}
            className="inline-flex min-w-0 items-center gap-1 rounded-l-2xl py-1 pl-2.5 pr-1 text-left hover:bg-brand-100"
            aria-label={`Edit filter: ${words.text}`}
          >
            <ListFilter aria-hidden className="size-3.5 shrink-0 text-brand-700" />
            <span className="sm:truncate">
              {words.field} <span className="text-slate-600">{words.operator}</span> <strong className="font-medium">{words.value}</strong>
            </span>
          </button>
        )}
      >
        <FilterEditor
          fields={filterFieldsOf(state.resource)}
          initial={filter}
          submitLabel="Apply"
          onApply={(condition) => {
            setOpen(false);
            onApply(condition);
          }}
          onRemove={() => {
            setOpen(false);
            onRemove();
          }}
        />
      </Popover>
      <button
        type="button"
        onClick={onRemove}
        className="self-stretch rounded-r-2xl py-1 pl-1 pr-2 text-slate-600 hover:bg-brand-100 hover:text-slate-900"
        aria-label={`Remove filter: ${words.text}`}
        data-testid="remove-filter"
      >
        <X aria-hidden className="size-3.5" />
      </button>
    </span>
  );
}

/** With two conditions or more: whether a row must match all of them or any. */
function MatchToggle({ state }: { state: ListingState }) {
  const { navigate } = useListingNavigation();
  const option = (value: "and" | "or", label: string) => (
    <button
      type="button"
      aria-pressed={state.searchCondition === value}
      onClick={() => state.searchCondition !== value && navigate(hrefWith(state, { searchCondition: value }))}
      className="px-2 py-1 text-slate-700 aria-pressed:bg-slate-800 aria-pressed:text-white"
    >
      {label}
    </button>
  );
  return (
    <div
      role="group"
      aria-label="Rows must match"
      className="inline-flex overflow-hidden rounded-md border border-slate-300 bg-white text-xs font-medium"
      data-testid="match-toggle"
    >
      {option("and", "Match all")}
      {option("or", "Match any")}
    </div>
  );
}
