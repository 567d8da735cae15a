"use client";

import type { ReactNode, RefObject } from "react";
import { AlertDialog } from "radix-ui";
import { buttonClasses } from "./button";

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Runs when the person confirms; the dialog closes. */
  onConfirm: () => void;
  /** Where the focus goes back to when the dialog closes (else where Radix puts it). */
  returnFocus?: RefObject<HTMLElement | null>;
}

/**
 * The one question before a destructive action (Radix AlertDialog: focus trapped, Esc cancels).
 * Used by ConfirmSubmit (components/ui/confirm-submit.tsx), which loads it on first use, and by a
 * saved view's menu.
 */
export default function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, onConfirm, returnFocus }: ConfirmDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <AlertDialog.Content
          onCloseAutoFocus={(event) => {
            if (!returnFocus) return;
            event.preventDefault();
            returnFocus.current?.focus();
          }}
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 bg-white p-5 shadow-xl"
          data-testid="confirm-dialog"
        >
          <AlertDialog.Title className="break-words text-base font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">{description}</AlertDialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClasses("secondary", { size: "sm" })}>Cancel</AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClasses("danger", { size: "sm" })} onClick={onConfirm}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
