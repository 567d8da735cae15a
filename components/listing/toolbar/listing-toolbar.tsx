"use client";

import { useEffect, useRef, useState } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { ListingState } from "@/lib/listing/search-params";
import { ColumnsMenu } from "./columns-menu";
import { FilterChips } from "./filter-chips";
import { IdsControl } from "./ids-control";
import { SearchBox } from "./search-box";
import { SortMenu } from "./sort-menu";

/** A key pressed while typing belongs to the field, not to the page's shortcuts. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * One line above the table: the search box, filter chips and "+ Filter" on the left; ids, columns, the sort, export
 * and the data's age with the API budget (`tools`, when the rows came) on the right. Everything applies at once by client navigation to the new address (the address stays
 * the whole truth: a link reproduces the page). Keys: `/` goes to the filters, `f` adds one.
 */
export function ListingToolbar({ state, tools, check }: { state: ListingState; tools?: React.ReactNode; check?: React.ReactNode }) {
  const [addOpen, setAddOpen] = useState(false);
  const chips = useRef<HTMLDivElement>(null);
  // Marks the toolbar as interactive (tests wait for it; before hydration its buttons do nothing).
  const ready = useHydrated();

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      // Not while a dialog or menu has the focus: its own keys come first.
      if (document.querySelector("[role=dialog], [role=menu], [role=alertdialog]")) return;
      if (event.key === "/") {
        event.preventDefault();
        // The first chip, or "+ Filter" when there is none.
        chips.current?.querySelector("button")?.focus();
      } else if (event.key === "f") {
        event.preventDefault();
        setAddOpen(true);
      }
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className="flex flex-wrap items-start gap-2" role="group" aria-label="Listing options" data-testid="listing-toolbar" data-ready={ready ? "true" : undefined}>
      {/* On a phone the chips have a line of their own: squeezed beside the buttons, "+ Filter" ran under them. */}
      {/* At least room for "+ Filter" and a chip: the tools wrap to a line of their own before they cover it. */}
      <div className="max-sm:basis-full">
        <SearchBox key={state.filters.map((filter) => filter.value).join("\n")} state={state} />
      </div>
      <div className="flex min-w-48 flex-1 flex-wrap items-center gap-2 max-sm:basis-full">
        {/* A Health check's filter (`check=`), drawn by the server with its count: components/listing/check-chip.tsx. */}
        {check}
        <FilterChips ref={chips} state={state} addOpen={addOpen} onAddOpenChange={setAddOpen} />
      </div>
      <div className="flex max-w-full flex-wrap items-center gap-2">
        <IdsControl state={state} />
        <ColumnsMenu state={state} />
        <SortMenu state={state} />
        {tools}
      </div>
    </div>
  );
}
