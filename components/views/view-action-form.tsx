"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { useActionForm } from "@/components/forms/use-action-form";
import type { FormAction } from "@/lib/forms/action-state";
import type { DeletedView } from "@/lib/views/views";
import { toastDeletedView } from "./view-action-client";

/**
 * A saved-view form (fields are server-rendered children): posts through useActionForm, so it also
 * works without JavaScript; with it, a success is a toast (a deletion's with "Undo") and the page
 * refreshes; an error stays beside the form.
 */
export function ViewActionForm({
  action,
  children,
  className,
  label,
  testId,
}: {
  action: FormAction | FormAction<DeletedView>;
  children: React.ReactNode;
  className?: string;
  label?: string;
  testId?: string;
}) {
  const router = useRouter();
  // Set once an answer came through the script (and was toasted); a no-script post shows it inline.
  const [toasted, setToasted] = useState(false);
  const { state, pending, fieldErrors, formProps } = useActionForm(action as FormAction<DeletedView | undefined>, {
    onSuccess: (result) => {
      setToasted(true);
      if (result.data) {
        toastDeletedView(result.message ?? "View deleted.", result.data, () => router.refresh());
      } else if (result.message) {
        toast.success(result.message);
      }
      router.refresh();
    },
  });
  const error = state.status === "error" ? (state.message ?? Object.values(fieldErrors)[0]) : undefined;
  // Without JavaScript there is no toast: the answer is shown here.
  const noScriptMessage = state.status === "success" && !toasted ? state.message : undefined;
  return (
    <form {...formProps} className={className} aria-label={label} data-testid={testId} aria-busy={pending || undefined}>
      <fieldset disabled={pending} className="contents">
        {children}
      </fieldset>
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {noScriptMessage ? (
        <p role="status" className="basis-full text-sm text-green-800">
          {noScriptMessage}
        </p>
      ) : null}
    </form>
  );
}
