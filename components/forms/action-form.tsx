"use client";

import type { FormAction } from "@/lib/forms/action-state";
import { useActionForm, type ActionFormOptions } from "./use-action-form";

/**
 * A small form whose fields are server-rendered children, with the action's answer as one line
 * beside it: its message, or the first field error. `onSuccess` (useActionForm's) may answer a
 * state without the message, e.g. once it is shown as a toast (components/forms/toast-success.ts).
 */
export function ActionForm<TData = undefined>({
  action,
  onSuccess,
  children,
  className,
  label,
  testId,
}: {
  action: FormAction<TData>;
  onSuccess?: ActionFormOptions<TData>["onSuccess"];
  children: React.ReactNode;
  className?: string;
  label?: string;
  testId?: string;
}) {
  const { state, pending, fieldErrors, formProps } = useActionForm(action, { onSuccess });
  const message = state.status === "idle" ? undefined : (state.message ?? Object.values(fieldErrors)[0]);
  const ok = state.status === "success";
  return (
    <form {...formProps} className={className} aria-label={label} data-testid={testId} aria-busy={pending || undefined}>
      <fieldset disabled={pending} className="contents">
        {children}
      </fieldset>
      {message ? (
        <p role={ok ? "status" : "alert"} className={`basis-full text-sm ${ok ? "text-green-800" : "text-red-700"}`}>
          {message}
        </p>
      ) : null}
    </form>
  );
}
