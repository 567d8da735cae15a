"use client";

import { toast } from "@/components/ui/toast";
import { IDLE, type ActionState, type FormAction } from "@/lib/forms/action-state";
import { restoreViewAction } from "@/lib/actions/views/restore-view";
import type { DeletedView } from "@/lib/views/views";

/**
 * For a menu item (not a form: a menu closes, and takes its content with it, as soon as an item is
 * chosen): the same server action a form would post to, with the same fields, its answer as a toast.
 */
export async function runViewAction<TData>(action: FormAction<TData>, fields: Record<string, string>, options: { quiet?: boolean } = {}): Promise<ActionState<TData>> {
  const formData = new FormData();
  for (const [key, value] of Object.entries(fields)) formData.set(key, value);
  let result: ActionState<TData>;
  try {
    result = await action(IDLE as ActionState<TData>, formData);
  } catch {
    result = { status: "error", message: "That did not go through; check your connection and try again." };
  }
  if (result.status === "success" && result.message && !options.quiet) toast.success(result.message);
  if (result.status === "error") toast.error(result.message ?? Object.values(result.fieldErrors ?? {})[0] ?? "That did not go through.");
  return result;
}

/**
 * The toast after a deletion, with "Undo": sends back what was deleted (restoreViewAction makes it
 * again, re-checked on the server as a save would be), then `onRestored` with the new view's link.
 */
export function toastDeletedView(message: string, deleted: DeletedView, onRestored: (href: string) => void): void {
  toast.success(message, {
    duration: 10_000,
    action: {
      label: "Undo",
      onClick: () => {
        void runViewAction(restoreViewAction, {
          page: deleted.page,
          name: deleted.name,
          query: deleted.query,
          scope: deleted.scope,
          makeDefault: deleted.wasDefault ? "on" : "",
          favourite: deleted.wasFavourite ? "on" : "",
        }).then((result) => {
          if (result.status === "success" && result.data) onRestored(result.data.href);
        });
      },
    },
  });
}
