"use client";

import { useRef, type ReactNode, type RefObject } from "react";
import { Popover } from "radix-ui";

export interface PopoverPanelProps {
  id: string;
  anchor: RefObject<HTMLElement | null>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
  align?: "start" | "center" | "end";
  className?: string;
  "aria-label": string;
}

/**
 * The panel of components/ui/popover.tsx, loaded with Radix on first intent. It has no Radix trigger
 * (the page's button is the anchor), so it does the trigger's two jobs itself: a press on the button
 * is no "click outside" (the button's own press toggles), and closing puts the focus back on it
 * unless the person clicked somewhere else.
 */
export default function PopoverPanel({ id, anchor, open, onOpenChange, children, align = "start", className, ...rest }: PopoverPanelProps) {
  const clickedOutside = useRef(false);
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Anchor virtualRef={anchor as RefObject<HTMLElement>} />
      <Popover.Portal>
        <Popover.Content
          id={id}
          align={align}
          sideOffset={6}
          collisionPadding={8}
          className={className}
          aria-label={rest["aria-label"]}
          onOpenAutoFocus={() => {
            clickedOutside.current = false;
          }}
          onInteractOutside={(event) => {
            if (anchor.current?.contains(event.target as Node)) event.preventDefault();
            else clickedOutside.current = true;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!clickedOutside.current) anchor.current?.focus();
          }}
        >
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
