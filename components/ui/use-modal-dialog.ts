"use client";

import { useEffect, useRef, type RefObject } from "react";

/**
 * A <dialog> (give it the returned ref) shown as a modal while `open` is true and closed when it
 * turns false: showModal makes the rest of the page inert, so the focus stays in the dialog.
 */
export function useModalDialog(open: boolean): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return dialog;
}
