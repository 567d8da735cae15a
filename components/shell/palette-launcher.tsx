"use client";

import { useEffect, useState } from "react";
import dynamic from "next/dynamic";
import { Search } from "lucide-react";
import { useHydrated } from "@/components/ui/use-hydrated";
import { expectTyping, takeOverShortcut } from "./type-ahead";

/** A page the palette jumps to (the navigation's items, and a few more). */
export interface PalettePage {
  href: string;
  label: string;
}

// The palette's code (cmdk, Radix's dialog) is fetched when it first opens, not with every page.
const PaletteDialog = dynamic(() => import("./palette-dialog").then((module) => module.PaletteDialog), { ssr: false });

/**
 * The command palette's launcher, on every page: ⌘K / Ctrl K or the header's Search button opens it
 * (components/shell/palette-dialog.tsx is the palette). `mac` comes from the server
 * (components/shell/command-palette.tsx), so the hint is written once, the same in the HTML and
 * after hydration; either modifier opens it anywhere.
 */
export function PaletteLauncher({ pages, mac }: { pages: PalettePage[]; mac: boolean }) {
  const [open, setOpen] = useState(false);
  // The shortcut listens once the page is interactive; tests wait for this mark before pressing it.
  const ready = useHydrated();

  useEffect(() => {
    // ⌘K pressed before the page was interactive (components/shell/type-ahead.ts kept it): opened as
    // soon as hydration has finished, like a key pressed now.
    if (takeOverShortcut()) queueMicrotask(() => setOpen(true));
    function onKeyDown(event: KeyboardEvent) {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setOpen((was) => {
          if (!was) expectTyping();
          return !was;
        });
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <>
      <button
        type="button"
        onClick={() => {
          expectTyping();
          setOpen(true);
        }}
        className="flex shrink-0 items-center gap-2 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-600 hover:bg-slate-50"
        aria-label="Search webhooks, events, pages and actions"
        aria-keyshortcuts={mac ? "Meta+K" : "Control+K"}
        data-testid="palette-open"
        data-ready={ready ? "true" : undefined}
      >
        <Search aria-hidden className="size-4" />
        {/* Beside the full navigation row (xl) the words give way, up to the widest screens. */}
        <span className="hidden sm:inline xl:hidden 2xl:inline">Search…</span>
        <kbd
          className="hidden whitespace-nowrap rounded border border-slate-200 bg-slate-50 px-1.5 font-sans text-xs text-slate-500 md:inline"
          data-testid="palette-shortcut"
        >
          {mac ? "⌘K" : "Ctrl K"}
        </kbd>
      </button>
      {/* Mounted per opening: a fresh query, and the views read again. */}
      {open ? <PaletteDialog pages={pages} mac={mac} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
