"use client";

import { lazy, Suspense, useRef, useState } from "react";
import { buttonClasses } from "./button";

// The dialog (Radix) loads with the first press, or when the pointer or the focus comes to the
// button: pages with a confirmation do not carry its code until someone may need it.
const loadDialog = () => import("./confirm-dialog");
const ConfirmDialog = lazy(loadDialog);

/**
 * A destructive submit button that asks first (components/ui/confirm-dialog.tsx; the focus returns
 * to the button). Place it inside the action's form: confirming submits that form, so the action,
 * its validation and its answer are exactly those of the form. The button is a real submit button:
 * without JavaScript it submits the form at once (the page's own wording already says what it
 * does), with JavaScript a click opens the question instead.
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
  const [asked, setAsked] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={triggerRef}
        type="submit"
        className={triggerClassName ?? buttonClasses("ghost-danger", { size: "sm" })}
        disabled={pending}
        aria-haspopup="dialog"
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={(event) => {
          event.preventDefault();
          setAsked(true);
          setOpen(true);
        }}
        data-testid={testId}
      >
        {trigger}
      </button>
      {asked ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={open}
            onOpenChange={setOpen}
            title={title}
            description={description}
            confirmLabel={confirmLabel}
            returnFocus={triggerRef}
            // The dialog is portalled out of the form: submit the form the trigger sits in.
            onConfirm={() => triggerRef.current?.form?.requestSubmit()}
          />
        </Suspense>
      ) : null}
    </>
  );
}
