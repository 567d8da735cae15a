"use client";

import { useEffect, useRef, useState } from "react";
import { usePathname, useRouter } from "next/navigation";
import { X } from "lucide-react";

/**
 * A side panel over the page, opened by a client navigation to a record's address (an intercepted
 * route, app/(portal)/@panel): closing it goes back to the page under it, so Back and Escape both
 * close it and the list keeps its place. The full page is a plain link (a document request, not
 * intercepted). No dialog library: this is the only one and it needs little.
 *
 * It is drawn only while the address is the one it opened at. A client navigation elsewhere (a link
 * in the panel, a keyboard shortcut, the palette) leaves a parallel route slot as it was when the slot
 * has no page for the new address, so the panel would stay over the next page; Back brings it again.
 * (A catch-all page in the slot used to close it, but a catch-all claims every address of the site,
 * /sign-in included, and `next dev` then found those pages unreachable and answered 404.)
 */
export function SidePanel({ title, fullPageHref, children }: { title: string; fullPageHref: string | null; children: React.ReactNode }) {
  const router = useRouter();
  const pathname = usePathname();
  const [openedAt] = useState(pathname);
  const open = pathname === openedAt;
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) router.back();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, open]);
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40 flex justify-end" data-testid="side-panel">
      <button type="button" aria-label="Close the panel" className="absolute inset-0 cursor-default bg-slate-900/20" onClick={() => router.back()} tabIndex={-1} />
      <div
        ref={panel}
        role="dialog"
        aria-label={title}
        tabIndex={-1}
        className="relative flex h-full w-full max-w-2xl flex-col border-l border-slate-200 bg-slate-50 shadow-xl outline-none"
      >
        <div className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-2">
          {fullPageHref ? (
            <a href={fullPageHref} className="text-sm font-medium text-brand-700 underline" data-testid="side-panel-full-page">
              Open the full page
            </a>
          ) : null}
          <button
            type="button"
            onClick={() => router.back()}
            className="ml-auto inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
            data-testid="side-panel-close"
          >
            <X aria-hidden className="size-4" />
            Close
          </button>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-4 py-4 sm:px-6">{children}</div>
      </div>
    </div>
  );
}
