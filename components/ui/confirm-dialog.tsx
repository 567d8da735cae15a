"use client";

import { useRef, useState } from "react";
import { AlertDialog } from "radix-ui";
import { buttonClasses } from "./button";

/**
 * A destructive submit button that asks first (Radix AlertDialog: focus trapped, Esc cancels,
 * focus returns to the button). Place it inside the action's form: confirming submits that form,
 * so the action, its validation and its answer are exactly those of the form. The button is a real
 * submit button: without JavaScript it submits the form at once (the page's own wording already
 * says what it does), with JavaScript a click opens the question instead.
 */
export function ConfirmSubmit({
  trigger,
  title,
  description,
  confirmLabel,
  pending,
  triggerClassName,
  testId,
}: {
  trigger: React.ReactNode;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  pending?: boolean;
  triggerClassName?: string;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <button
        ref={triggerRef}
        type="submit"
        className={triggerClassName ?? buttonClasses("ghost", "px-3 py-1.5 text-red-700")}
        disabled={pending}
        aria-haspopup="dialog"
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
        data-testid={testId}
      >
        {trigger}
      </button>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <AlertDialog.Content
          // Back to the button that asked (it is no Radix trigger: it must stay a plain submit button).
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            triggerRef.current?.focus();
          }}
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 bg-white p-5 shadow-xl"
          data-testid="confirm-dialog"
        >
          <AlertDialog.Title className="text-base font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">{description}</AlertDialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClasses("secondary", "px-3 py-1.5")}>Cancel</AlertDialog.Cancel>
            <AlertDialog.Action
              className={buttonClasses("danger", "px-3 py-1.5")}
              onClick={() => {
                // The dialog is portalled out of the form: submit the form the trigger sits in.
                triggerRef.current?.form?.requestSubmit();
              }}
            >
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
