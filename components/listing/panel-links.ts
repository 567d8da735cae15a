"use client";

import { useCallback } from "react";
import { useRouter } from "next/navigation";

/** A webhook's address: from a listing, it opens in the side panel over the list (app/(portal)/@panel). */
const PANEL_HREF = /^\/webhooks\/[^/?#]+$/;

/**
 * One click handler for a table's body instead of a next/link per webhook: the rows carry plain
 * `<a href="/webhooks/…">`, and a plain click on one becomes the client navigation that the panel's
 * intercepting route answers, as a Link's would. A page of 140 groups lists ~500 webhooks, and a
 * Link each cost their rendering on the server (issue 38) and their hydration in the browser.
 * A click with a modifier, another button or before hydration is the browser's own (a new tab, or
 * the webhook's full page).
 */
export function usePanelLinkClick(): (event: React.MouseEvent<HTMLElement>) => void {
  const router = useRouter();
  return useCallback(
    (event: React.MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link) || (link.target && link.target !== "_self")) return;
      const href = link.getAttribute("href") ?? "";
      if (!PANEL_HREF.test(href)) return;
      event.preventDefault();
      router.push(href, { scroll: false });
    },
    [router],
  );
}
