"use client";

import { startTransition, useActionState, type FormEvent } from "react";
import type { ActionState } from "@/lib/forms/action-state";

/**
 * useActionState for a form that keeps what was typed: the submission is dispatched from onSubmit
 * (not the form's `action` prop), so React does not reset the fields after the action, and a
 * refused submission can be corrected instead of retyped.
 */
export function useFormAction<TData = undefined>(action: (previous: ActionState<TData>, formData: FormData) => Promise<ActionState<TData>>) {
  const [state, dispatch, pending] = useActionState(action, { status: "idle" } as ActionState<TData>);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(() => dispatch(formData));
  }
  const fieldErrors: Record<string, string> = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  return { state, pending, onSubmit, fieldErrors };
}
