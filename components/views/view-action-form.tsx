"use client";

import { useRouter } from "next/navigation";
import { ActionForm } from "@/components/forms/action-form";
import { toastSuccess } from "@/components/forms/toast-success";
import type { FormAction } from "@/lib/forms/action-state";
import type { DeletedView } from "@/lib/views/views";
import { toastDeletedView } from "./view-action-client";

/**
 * A saved-view form (fields are server-rendered children): an ActionForm whose success is a toast
 * (a deletion's with "Undo") and refreshes the page; an error stays beside the form. Without
 * JavaScript there is no toast, and the posted answer's message shows beside the form.
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
  return (
    <ActionForm
      action={action as FormAction<DeletedView | undefined>}
      onSuccess={(result) => {
        router.refresh();
        if (!result.data) return toastSuccess(result);
        toastDeletedView(result.message ?? "View deleted.", result.data, () => router.refresh());
        return { status: "success" };
      }}
      className={className}
      label={label}
      testId={testId}
    >
      {children}
    </ActionForm>
  );
}
