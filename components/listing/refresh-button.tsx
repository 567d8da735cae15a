"use client";

import { refreshListingAction } from "@/lib/actions/listing/refresh-listing";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";
import { plural } from "@/lib/text/plural";

/** "Refresh (10 credits)": asks the API again for what is on screen, bypassing the shared answer. */
export function RefreshButton({ resource, search, groupId, cost }: { resource: string; search: string; groupId?: number; cost: number }) {
  const { state, pending, formProps } = useActionForm(refreshListingAction);
  return (
    <form {...formProps} className="inline" aria-label="Refresh the data" data-testid="refresh-form">
      <input type="hidden" name="resource" value={resource} />
      <input type="hidden" name="search" value={search} />
      <input type="hidden" name="groupId" value={groupId ?? ""} />
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending || undefined}
        className="whitespace-nowrap rounded px-1 font-medium text-brand-700 underline decoration-dotted underline-offset-2 hover:decoration-solid disabled:text-slate-400"
        title={`Ask the EMS API again now: one call, ${plural(cost, "credit")} of the shared budget`}
      >
        {pending ? "Refreshing…" : `Refresh (${plural(cost, "credit")})`}
      </button>
      {state.status === "error" ? <FormMessage state={state} testId="refresh" /> : null}
    </form>
  );
}
