"use client";

import { Notice } from "@/components/ui/notice";
import type { ActionState } from "@/lib/forms/action-state";
import { useIsLatestMessage } from "./latest-message";

/**
 * The form-level outcome of an action: announced (role alert/status) and picked by test id. Inside
 * a LatestMessageScope, only the last used form's outcome is shown.
 */
export function FormMessage({ state, testId }: { state: ActionState<unknown>; testId: string }) {
  const latest = useIsLatestMessage(testId, state);
  if (!latest) return null;
  if (state.status === "success" && state.message) {
    return (
      <Notice tone="success" testId={`${testId}-success`}>
        {state.message}
      </Notice>
    );
  }
  if (state.status === "error" && (state.message || state.fieldErrors)) {
    return (
      <Notice tone="error" testId={`${testId}-error`}>
        {state.message ?? "Please correct the fields marked below."}
      </Notice>
    );
  }
  return null;
}
