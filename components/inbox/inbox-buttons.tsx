"use client";

import { markAllInboxReadAction } from "@/lib/actions/inbox/mark-all-read";
import { markInboxItemReadAction } from "@/lib/actions/inbox/mark-read";
import { buttonClasses } from "@/components/ui/button";
import { ActionForm } from "@/components/forms/action-form";

/** "Mark read" on one item of the person's own inbox. */
export function MarkReadButton({ itemId }: { itemId: string }) {
  return (
    <ActionForm action={markInboxItemReadAction} className="flex flex-wrap items-center gap-2" label="Mark this item read">
      <input type="hidden" name="itemId" value={itemId} />
      <button type="submit" className={buttonClasses("secondary", { size: "sm" })} data-testid="inbox-mark-read">
        Mark read
      </button>
    </ActionForm>
  );
}

/** "Mark all read": every unread item of the person's own inbox. */
export function MarkAllReadButton() {
  return (
    <ActionForm action={markAllInboxReadAction} className="flex flex-wrap items-center gap-2" label="Mark every item read">
      <button type="submit" className={buttonClasses("secondary", { size: "sm" })} data-testid="inbox-mark-all-read">
        Mark all read
      </button>
    </ActionForm>
  );
}
