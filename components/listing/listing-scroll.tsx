"use client";

import { useEffect, useRef, useState } from "react";
import { useTargetFlash } from "@/components/ui/use-target-flash";

/**
 * The box of a listing's table. The page scrolls, not the box: the table's header sticks below the
 * portal's bar (`--portal-sticky-top`). Only a table wider than the box scrolls sideways in it; such
 * a box is a scroll container, where `position: sticky` would hold to the box instead of the page,
 * so there the header is moved down by hand as the page scrolls (`--head-shift`).
 */
export function ListingScroll({ label, children }: { label: string; children: React.ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  // Null until measured: the box then scrolls sideways, whatever the table's width (app/globals.css).
  const [wide, setWide] = useState<boolean | null>(null);
  useTargetFlash(box);

  useEffect(() => {
    const element = box.current;
    const table = element?.querySelector("table");
    if (!element || !table) return;
    const check = () => {
      const isWide = table.scrollWidth > element.clientWidth + 1;
      // A table that stopped fitting (a phone's width turned into a desktop's) scrolls in its box
      // from the first frame painted: React draws the new state a task later, and meanwhile the
      // box would still let the table widen the page (data-fits: overflow visible).
      if (isWide) element.removeAttribute("data-fits");
      setWide(isWide);
    };
    const observer = new ResizeObserver(check);
    observer.observe(element);
    observer.observe(table);
    check();
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = box.current;
    const head = element?.querySelector("thead");
    if (!wide || !element || !head) return;
    // The bar's height, as the stylesheet says it (it changes with the layout's breakpoints).
    const probe = document.createElement("div");
    probe.style.cssText = "position:absolute;visibility:hidden;height:var(--portal-sticky-top,0px)";
    element.append(probe);
    let frame = 0;
    const place = () => {
      frame = 0;
      const rect = element.getBoundingClientRect();
      const shift = Math.max(0, Math.min(probe.offsetHeight - rect.top, rect.height - head.offsetHeight * 2));
      element.style.setProperty("--head-shift", `${shift}px`);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(place);
    };
    place();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    return () => {
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      cancelAnimationFrame(frame);
      probe.remove();
      element.style.removeProperty("--head-shift");
    };
  }, [wide]);

  return (
    <div
      ref={box}
      // Focusable and named while it may scroll (a keyboard scrolls it with the arrows); a box whose
      // table fits is no region of its own.
      tabIndex={wide !== false ? 0 : undefined}
      role={wide !== false ? "region" : undefined}
      aria-label={wide !== false ? label : undefined}
      data-wide={wide ? "" : undefined}
      data-fits={wide === false ? "" : undefined}
      className="listing-scroll"
      data-testid="listing-scroll"
    >
      {children}
    </div>
  );
}
