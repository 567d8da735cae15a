"use client";

import { useId, useState } from "react";
import { Hash } from "lucide-react";
import { MAX_IDS } from "@/lib/ems/contract";
import { hrefWith } from "@/lib/listing/href";
import { parseIdList } from "@/lib/listing/ids";
import type { ListingState } from "@/lib/listing/search-params";
import { buttonClasses } from "@/components/ui/button";
import { Popover } from "@/components/ui/popover";
import { useListingNavigation } from "./listing-navigation";
import { popoverPanel, toolbarButton } from "./styles";

/**
 * "Only these ids", behind its own button: a pasted list (commas, spaces or new lines) is sent as
 * typed and checked by the server, which says precisely what is wrong and keeps the text.
 */
export function IdsControl({ state }: { state: ListingState }) {
  const { navigate } = useListingNavigation();
  const id = useId();
  const [text, setText] = useState(state.idsText);
  const broken = state.idsErrors.length > 0;
  const label = broken ? "IDs: not applied" : state.ids.length > 0 ? `IDs · ${state.ids.length}` : "IDs";
  const [errors, setErrors] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  // Checked here by the server's own rule: a wrong list gets its messages at once, and the address
  // only ever holds a list that is applied.
  const apply = (idsText: string) => {
    const parsed = parseIdList(idsText);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setOpen(false);
    navigate(hrefWith(state, { ids: parsed.ids, idsErrors: [], idsText: "" }));
  };

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setText(state.idsText);
          setErrors(state.idsErrors);
        }
      }}
      align="end"
      className={`${popoverPanel} w-80`}
      aria-label="Only these ids"
      trigger={(props) => (
        <button type="button" {...props} className={toolbarButton({ broken })} data-testid="ids-control">
          <Hash aria-hidden className="size-4" />
          <span className="max-sm:sr-only">{label}</span>
        </button>
      )}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          apply(text);
        }}
        className="space-y-2"
      >
        <label htmlFor={`${id}-ids`} className="text-xs font-semibold uppercase tracking-wide text-slate-600">
          Only these ids
        </label>
        <textarea
          id={`${id}-ids`}
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="e.g. 12, 15, 40"
          aria-invalid={errors.length > 0 || undefined}
          className="w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-sm aria-invalid:border-red-600"
          data-testid="ids-input"
          autoFocus
        />
        {errors.length > 0 ? (
          <div role="alert" className="text-sm text-red-700" data-testid="ids-errors">
            <p>These ids cannot be used:</p>
            <ul className="list-disc pl-5">
              {errors.map((error, i) => (
                <li key={i}>{error}</li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="text-xs text-slate-600">Up to {MAX_IDS} positive whole numbers; commas, spaces or new lines.</p>
        )}
        <div className="flex justify-end gap-2">
          {state.ids.length > 0 || broken ? (
            <button type="button" className={buttonClasses("ghost", { size: "xs" })} onClick={() => apply("")}>
              Clear
            </button>
          ) : null}
          <button type="submit" className={buttonClasses("primary", { size: "sm" })}>
            Apply ids
          </button>
        </div>
      </form>
    </Popover>
  );
}
