"use client";

import { useHydrated } from "@/components/ui/use-hydrated";
import { useRouter } from "next/navigation";
import { toast } from "@/components/ui/toast";
import { useActionForm } from "@/components/forms/use-action-form";
import { buttonClasses } from "@/components/ui/button";
import { saveViewAction } from "@/lib/actions/views/save-view";

/**
 * "Save as new": name, who sees it, open by default. In the tab bar's popover, and on /views/new
 * for a browser without JavaScript (where the action answers with a redirect to the new view).
 */
export function SaveViewForm({ page, query, idPrefix, onSaved }: { page: string; query: string; idPrefix: string; onSaved?: () => void }) {
  const router = useRouter();
  const scripted = useHydrated();
  const { state, pending, fieldErrors, formProps } = useActionForm(saveViewAction, {
    onSuccess: (result) => {
      if (result.message) toast.success(result.message);
      onSaved?.();
      if (result.data) router.push(result.data.href);
    },
  });
  const nameError = fieldErrors.name;
  const formError = state.status === "error" ? (state.message ?? (nameError ? undefined : Object.values(fieldErrors)[0])) : undefined;
  return (
    <form {...formProps} className="space-y-3" aria-label="Save these options as a new view" data-testid="save-view-form" aria-busy={pending || undefined}>
      <input type="hidden" name="page" value={page} />
      <input type="hidden" name="query" value={query} />
      <input type="hidden" name="then" value={scripted ? "answer" : "open"} />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idPrefix}-name`} className="text-sm font-medium text-slate-800">
          Name
        </label>
        <input
          id={`${idPrefix}-name`}
          name="name"
          required
          maxLength={80}
          autoComplete="off"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${idPrefix}-name-error` : undefined}
          className="rounded-md border border-slate-300 px-2 py-1.5 text-sm"
        />
        {nameError ? (
          <p id={`${idPrefix}-name-error`} className="text-sm text-red-700">
            {nameError}
          </p>
        ) : null}
      </div>
      <fieldset className="space-y-1 text-sm">
        <legend className="font-medium text-slate-800">Who sees it</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="scope" value="PERSONAL" defaultChecked /> Only me
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="scope" value="TEAM" /> My team
        </label>
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="makeDefault" /> Open by default
      </label>
      {formError ? (
        <p role="alert" className="text-sm text-red-700">
          {formError}
        </p>
      ) : null}
      <button type="submit" className={buttonClasses("primary", { size: "sm", className: "w-full" })} disabled={pending}>
        Save view
      </button>
    </form>
  );
}
