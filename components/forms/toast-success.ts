"use client";

import { toast } from "@/components/ui/toast";
import type { ActionSuccessState } from "@/lib/forms/action-state";

/**
 * For a form's `onSuccess` (useActionForm): the action's message as a toast, and the state
 * without it, so the inline notice does not say it a second time. Errors stay inline, next to
 * their fields. Without JavaScript no toast can show: the posted answer keeps its inline message.
 */
export function toastSuccess<TData>(state: ActionSuccessState<TData>): ActionSuccessState<TData> {
  if (state.message) toast.success(state.message);
  return { status: "success", ...(state.data !== undefined ? { data: state.data } : {}) };
}
