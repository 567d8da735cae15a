"use client";

import { useState } from "react";
import { useModalDialog } from "@/components/ui/use-modal-dialog";
import { usePathname } from "next/navigation";
import { Menu, X } from "lucide-react";
import { NavGroups } from "./nav-links";
import type { NavGroup } from "./nav-items";

/**
 * Below 1,024 px, the navigation is a sheet from the left behind a "Menu" button: a native modal
 * <dialog> (showModal makes the rest of the page inert, so the focus stays in it; Escape closes it
 * and the focus goes back to the button), closed by a click on the backdrop and by any navigation.
 */
export function NavSheet({ groups, teamName }: { groups: NavGroup[]; teamName: string }) {
  const [open, setOpen] = useState(false);
  const dialog = useModalDialog(open);
  const pathname = usePathname();
  // On a phone the inbox's count stays in sight on the button that opens the navigation.
  const inbox = groups.flatMap((group) => group.items).find((item) => item.href === "/inbox")?.badge;

  // A navigation (a link in the sheet, Back, the palette) closes it.
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    if (open) setOpen(false);
  }

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-expanded={open}
        className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 lg:hidden"
        data-testid="nav-menu-open"
      >
        <Menu aria-hidden className="size-4" />
        Menu
        {inbox ? (
          <span className="rounded-full bg-amber-400 px-1.5 py-0.5 text-xs font-semibold text-amber-950" data-testid="nav-menu-inbox">
            {inbox.text}
            <span className="sr-only"> ({inbox.title})</span>
          </span>
        ) : null}
      </button>
      <dialog
        ref={dialog}
        aria-label="Menu"
        onClose={() => setOpen(false)}
        // The page behind is inert, but Tab past the last link would leave for the browser's own
        // controls: it wraps around inside the sheet instead.
        onKeyDown={(event) => {
          if (event.key !== "Tab") return;
          const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>("a[href], button:not([disabled])")];
          const first = focusable[0];
          const last = focusable.at(-1);
          if (!first || !last) return;
          if (event.shiftKey && document.activeElement === first) {
            event.preventDefault();
            last.focus();
          } else if (!event.shiftKey && document.activeElement === last) {
            event.preventDefault();
            first.focus();
          }
        }}
        // A click on the backdrop lands on the dialog itself (its content fills it to the edges).
        onClick={(event) => {
          if (event.target === event.currentTarget) setOpen(false);
        }}
        className="fixed inset-y-0 left-0 m-0 h-dvh max-h-none w-72 max-w-[calc(100vw-3rem)] border-r border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40 lg:hidden"
        data-testid="nav-sheet"
      >
        {open ? (
          <div className="flex h-full flex-col">
            <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3">
              <span aria-hidden className="grid size-7 shrink-0 place-items-center rounded-md bg-brand-600 text-sm font-semibold text-white">
                E
              </span>
              <span className="min-w-0">
                <span className="block text-sm font-semibold">EMS Portal</span>
                <span className="block truncate text-xs text-slate-600">{teamName}</span>
              </span>
              <button
                type="button"
                onClick={() => setOpen(false)}
                className="ml-auto inline-flex items-center rounded-md p-1.5 text-slate-600 hover:bg-slate-100"
                aria-label="Close the menu"
                data-testid="nav-menu-close"
              >
                <X aria-hidden className="size-5" />
              </button>
            </div>
            <nav aria-label="Main menu" className="min-h-0 flex-1 overflow-y-auto px-2 py-4">
              <NavGroups groups={groups} idPrefix="sheet" onNavigate={() => setOpen(false)} />
            </nav>
          </div>
        ) : null}
      </dialog>
    </>
  );
}
