"use client";

import { lazy, Suspense, useId, useRef, useState, type HTMLAttributes, type ReactNode, type RefObject } from "react";
import type { PopoverPanelProps } from "./popover-panel";

// Radix's popover (positioning, focus scope, dismissal: about 40 kB gzip with its dependencies) is
// loaded when a person shows they may open one, not with the page: most page views open none.
const loadPanel = () => import("./popover-panel");
const PopoverPanel = lazy(loadPanel);

/** What the trigger must carry: its state for assistive technology, and the handlers. */
export type PopoverTriggerProps<T extends HTMLElement> = Pick<HTMLAttributes<T>, "aria-expanded" | "aria-haspopup" | "aria-controls" | "onPointerEnter" | "onFocus"> & {
  ref: RefObject<T | null>;
  onClick: (event: React.MouseEvent<T>) => void;
  "data-state": "open" | "closed";
};

/**
 * A button (or a link standing in for one) that opens a panel beside it. The button is drawn with
 * the page and never replaced (so the focus never jumps); the panel's code loads on the first sign
 * of intent (pointer over the button, focus, press) and the panel is anchored to the button. Escape,
 * a click outside and a second press close it; the focus then goes back to the button.
 *
 * Controlled with `open` and `onOpenChange`, or on its own state without them.
 */
export function Popover<T extends HTMLElement = HTMLButtonElement>({
  trigger,
  children,
  open: controlled,
  onOpenChange,
  triggerRef,
  ...panel
}: {
  trigger: (props: PopoverTriggerProps<T>) => ReactNode;
  children: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The trigger's element, for a caller that moves the focus to it. */
  triggerRef?: RefObject<T | null>;
} & Omit<PopoverPanelProps, "anchor" | "open" | "onOpenChange" | "id" | "children">) {
  const own = useRef<T>(null);
  const anchor = triggerRef ?? own;
  const [uncontrolled, setUncontrolled] = useState(false);
  const open = controlled ?? uncontrolled;
  const setOpen = (next: boolean) => {
    if (controlled === undefined) setUncontrolled(next);
    onOpenChange?.(next);
  };
  // The panel mounts at the first opening and stays mounted (Radix unmounts its content when closed).
  const [mounted, setMounted] = useState(false);
  if (open && !mounted) setMounted(true);
  const id = useId();

  return (
    <>
      {trigger({
        ref: anchor,
        "aria-haspopup": "dialog",
        "aria-expanded": open,
        "aria-controls": open ? id : undefined,
        "data-state": open ? "open" : "closed",
        onClick: (event) => {
          // A trigger may be a link to a page that does the same without JavaScript.
          event.preventDefault();
          setOpen(!open);
        },
        onPointerEnter: () => void loadPanel(),
        onFocus: () => void loadPanel(),
      })}
      {mounted ? (
        <Suspense fallback={null}>
          <PopoverPanel id={id} anchor={anchor} open={open} onOpenChange={setOpen} {...panel}>
            {children}
          </PopoverPanel>
        </Suspense>
      ) : null}
    </>
  );
}
