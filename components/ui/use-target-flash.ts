"use client";

import { useEffect, type RefObject } from "react";

/** How long a linked-to element stays marked (the fade is app/globals.css's `target-flash`). */
const FLASH_MS = 2_400;

/**
 * Marks the element the address's `#fragment` names, inside `scope`, for a moment (`data-flash`),
 * and brings it into view below the sticky bars (its scroll-margin). The browser's `:target` does
 * the same on a full load, but not after a client navigation (history.pushState), nor for a row
 * that streamed in after the browser looked for it.
 */
export function useTargetFlash(scope: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flash = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      if (!id) return;
      const target = document.getElementById(id);
      if (!target || !scope.current?.contains(target)) return;
      const rect = target.getBoundingClientRect();
      if (rect.top < 0 || rect.bottom > window.innerHeight) target.scrollIntoView({ block: "start" });
      target.removeAttribute("data-flash");
      // A reflow between, so that the same element can flash again.
      void target.offsetWidth;
      target.setAttribute("data-flash", "");
      clearTimeout(timer);
      timer = setTimeout(() => target.removeAttribute("data-flash"), FLASH_MS);
    };
    flash();
    window.addEventListener("hashchange", flash);
    return () => {
      window.removeEventListener("hashchange", flash);
      clearTimeout(timer);
    };
  }, [scope]);
}
