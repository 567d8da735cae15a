"use client";

import { useEffect, useRef, useState } from "react";
import dynamic from "next/dynamic";
import { usePathname, useRouter } from "next/navigation";
import { GO_TO, GO_TO_WINDOW_MS, SHOW_SHORTCUTS_EVENT } from "./shortcut-keys";

// Radix's dialog comes with the first "?", not with every page.
const ShortcutsDialog = dynamic(() => import("./shortcuts-dialog").then((module) => module.ShortcutsDialog), { ssr: false });

/**
 * The rows j/k move between, by the marks the lists already carry: a listing's rows (webhooks,
 * groups, events: components/listing/listing-rows.tsx), Health's findings and the saved views.
 */
const ROW_SELECTOR = '[data-testid="listing-row"], [data-testid="finding"], [data-testid="view-row"]';
/** The row j/k last moved to (or that holds the focus): one at a time. */
const CURRENT = "data-keyboard-current";
/** How the current row shows (Tailwind classes, kept whole here so the build generates them). */
const CURRENT_CLASSES = ["outline-2", "-outline-offset-2", "outline-brand-500", "bg-brand-50!", "[&>td]:bg-brand-50!"];
/** Where a key means something else: typing, or a widget with its own arrows and Enter. */
const WIDGETS = '[role="dialog"], [role="menu"], [role="listbox"], [role="combobox"], [role="tablist"], [role="grid"], [contenteditable=""], [contenteditable="true"]';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

const onPage = (target: EventTarget | null) => target === null || target === document.body || target === document.documentElement;

function visibleRows(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>(ROW_SELECTOR)).filter((row) => row.getClientRects().length > 0 && !row.closest('[role="dialog"]'));
}

/** The row's main link: the listing's whole-row link, else its first link. */
function mainLink(row: HTMLElement): HTMLAnchorElement | null {
  return row.querySelector<HTMLAnchorElement>("a.row-link") ?? row.querySelector<HTMLAnchorElement>("a[href]");
}

function markCurrent(row: HTMLElement | null): void {
  for (const marked of document.querySelectorAll<HTMLElement>(`[${CURRENT}]`)) {
    if (marked === row) continue;
    marked.removeAttribute(CURRENT);
    marked.classList.remove(...CURRENT_CLASSES);
  }
  if (row && !row.hasAttribute(CURRENT)) {
    row.setAttribute(CURRENT, "");
    row.classList.add(...CURRENT_CLASSES);
  }
}

/** How far down the page's sticky or fixed bars reach (the header, a sticky toolbar). */
function stickyBottom(): number {
  let bottom = 0;
  for (const bar of document.querySelectorAll<HTMLElement>("body header, body [data-sticky]")) {
    const position = getComputedStyle(bar).position;
    if (position !== "sticky" && position !== "fixed") continue;
    const box = bar.getBoundingClientRect();
    // A bar across the top, not a sidebar down the side (the layout's header is one from 1,024 px).
    if (box.top <= 1 && box.height > 0 && box.height < window.innerHeight / 2) bottom = Math.max(bottom, box.bottom);
  }
  return bottom;
}

/** Scrolls the row into view below the sticky bars and its table's sticky header. */
function reveal(row: HTMLElement): void {
  const head = row.closest("table")?.querySelector("thead th");
  const headHeight = head && getComputedStyle(head).position === "sticky" ? head.getBoundingClientRect().height : 0;
  row.style.scrollMarginTop = `${Math.ceil(stickyBottom() + headHeight + 8)}px`;
  row.style.scrollMarginBottom = "8px";
  row.scrollIntoView({ block: "nearest" });
}

/**
 * The portal's keyboard, mounted once in the portal's layout (components/shell/keyboard-shortcuts.tsx):
 * - j / ↓ and k / ↑ move a visible focus between a list's rows (the real focus goes to the row's
 *   main link, so Enter opens it and a screen reader says it), scrolled clear of the sticky header;
 *   Enter opens the current row while the focus is on the page;
 * - "g" then w, g, e, h or c goes to Webhooks, Webhook groups, Events, Health or Coverage;
 * - "?" shows every shortcut (shortcut-keys.ts);
 * - Escape closes an open dropdown menu (a `<details>` whose panel floats); Radix's dialogs and
 *   popovers, the palette and the side panel close themselves.
 * Nothing fires while typing in a field, inside a dialog or menu, or with Ctrl, Alt or ⌘ held.
 */
export function KeyboardNavigation({ mac }: { mac: boolean }) {
  const router = useRouter();
  const pathname = usePathname();
  const [helpOpen, setHelpOpen] = useState(false);
  const goPending = useRef(0);

  // A new page has new rows: no row of the last one stays marked.
  useEffect(() => markCurrent(null), [pathname]);

  useEffect(() => {
    const showHelp = () => setHelpOpen(true);

    function move(delta: 1 | -1): boolean {
      const rows = visibleRows();
      if (rows.length === 0) return false;
      const at = rows.findIndex((row) => row.hasAttribute(CURRENT));
      const next = at < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, at + delta));
      const row = rows[next];
      markCurrent(row);
      (mainLink(row) ?? row).focus({ preventScroll: true });
      reveal(row);
      return true;
    }

    function closeMenus(): boolean {
      let closed = false;
      for (const menu of document.querySelectorAll<HTMLDetailsElement>("details[open]")) {
        const panel = Array.from(menu.children).find((child) => child.tagName !== "SUMMARY");
        const position = panel ? getComputedStyle(panel).position : "";
        if (position !== "absolute" && position !== "fixed") continue; // a disclosure section, not a menu
        const hadFocus = menu.contains(document.activeElement);
        menu.open = false;
        if (hadFocus) menu.querySelector<HTMLElement>("summary")?.focus();
        closed = true;
      }
      return closed;
    }

    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.isComposing) return;
      if (event.key === "Escape") {
        if (closeMenus()) event.preventDefault();
        return;
      }
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target;
      if (isTyping(target) || (target instanceof Element && target.closest(WIDGETS))) return;

      const goingTo = Date.now() - goPending.current < GO_TO_WINDOW_MS;
      goPending.current = 0;
      if (goingTo && !event.shiftKey && GO_TO[event.key]) {
        event.preventDefault();
        router.push(GO_TO[event.key].href);
        return;
      }
      const inRow = target instanceof Element && target.closest(ROW_SELECTOR) !== null;
      switch (event.key) {
        case "?":
          event.preventDefault();
          setHelpOpen(true);
          return;
        case "g":
          if (!event.shiftKey) goPending.current = Date.now();
          return;
        case "j":
        case "k":
          if (!event.shiftKey && move(event.key === "j" ? 1 : -1)) event.preventDefault();
          return;
        case "ArrowDown":
        case "ArrowUp":
          // Arrows scroll the page as usual unless the focus is on the page itself or on a row.
          if (!event.shiftKey && (onPage(target) || inRow) && move(event.key === "ArrowDown" ? 1 : -1)) event.preventDefault();
          return;
        case "Enter": {
          if (!onPage(target)) return; // a focused link or button does its own Enter
          const row = visibleRows().find((candidate) => candidate.hasAttribute(CURRENT));
          const link = row ? mainLink(row) : null;
          if (link) {
            event.preventDefault();
            link.click();
          }
          return;
        }
      }
    }

    // A row reached with Tab becomes the current one: j/k go on from there (a click marks nothing).
    function onFocusIn(event: FocusEvent) {
      const target = event.target instanceof Element && event.target.matches(":focus-visible") ? event.target : null;
      const row = target?.closest<HTMLElement>(ROW_SELECTOR) ?? null;
      if (row) markCurrent(row);
    }

    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("focusin", onFocusIn);
    window.addEventListener(SHOW_SHORTCUTS_EVENT, showHelp);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("focusin", onFocusIn);
      window.removeEventListener(SHOW_SHORTCUTS_EVENT, showHelp);
    };
  }, [router]);

  return helpOpen ? <ShortcutsDialog mac={mac} onClose={() => setHelpOpen(false)} /> : null;
}
