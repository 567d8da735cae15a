"use client";

import { refreshSetupAction } from "@/lib/actions/coverage/refresh-setup";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

/** "Refresh (20 credits)": the account's whole setup asked again, bypassing what the team shares. */
export function RefreshSetupButton({ returnTo, credits }: { returnTo: string; credits: number }) {
  const { state, pending, formProps } = useActionForm(refreshSetupAction);
  return (
    <form {...formProps} className="inline-flex flex-wrap items-baseline gap-x-2" aria-label="Refresh the setup" data-testid="refresh-setup-form">
      <input type="hidden" name="returnTo" value={returnTo} />
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending || undefined}
        className="whitespace-nowrap rounded px-1 font-medium text-brand-700 underline decoration-dotted underline-offset-2 hover:decoration-solid disabled:text-slate-400"
        title={`Ask the EMS API again now for every webhook group and event: ${credits} credits of the shared budget`}
      >
        {pending ? "Refreshing…" : `Refresh (${credits} credits)`}
      </button>
      {state.status === "error" ? <FormMessage state={state} testId="refresh-setup" /> : null}
    </form>
  );
}
