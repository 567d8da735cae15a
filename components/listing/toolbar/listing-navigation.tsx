"use client";

import { createContext, useCallback, useContext, useMemo, useTransition } from "react";
import { useRouter } from "next/navigation";

interface ListingNavigation {
  /** Go to another address of this listing: one client navigation (one RSC request, no document). */
  navigate: (href: string) => void;
  /** A navigation is under way: the rows on screen are the previous ones. */
  pending: boolean;
}

const Context = createContext<ListingNavigation | null>(null);

/**
 * Every change of a listing's options (toolbar, sort headers, pagination) goes through here, inside
 * one transition: React keeps the current rows on screen until the new ones have arrived, and
 * `pending` lets the table show that it is loading in place.
 */
export function ListingNavigationProvider({ children }: { children: React.ReactNode }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const navigate = useCallback(
    (href: string) => {
      startTransition(() => router.push(href, { scroll: false }));
    },
    [router],
  );
  const value = useMemo(() => ({ navigate, pending }), [navigate, pending]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useListingNavigation(): ListingNavigation {
  const value = useContext(Context);
  if (!value) throw new Error("useListingNavigation needs a ListingNavigationProvider around it.");
  return value;
}

/** The table's box: dimmed and marked busy while the next rows load, at the same size (no jump). */
export function ListingBusy({ children }: { children: React.ReactNode }) {
  const { pending } = useListingNavigation();
  return (
    <div
      aria-busy={pending || undefined}
      data-pending={pending ? "true" : undefined}
      className="relative transition-opacity data-pending:opacity-60"
      data-testid="listing-area"
    >
      {pending ? (
        <div role="status" className="absolute inset-x-0 top-0 z-10 h-0.5 overflow-hidden bg-brand-100" data-testid="listing-pending">
          <span className="sr-only">Loading…</span>
          <span aria-hidden className="block h-full w-1/3 animate-[listing-progress_1s_ease-in-out_infinite] bg-brand-600" />
        </div>
      ) : null}
      {children}
    </div>
  );
}

/**
 * A link to another address of the listing. A plain link without JavaScript; with it, a click is a
 * client navigation through the provider, and shift-click follows `shiftHref` (add a sort level).
 * Ctrl/⌘-click and middle-click keep their usual meaning (a new tab).
 */
export function ListingLink({ href, shiftHref, children, ...rest }: Omit<React.AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { href: string; shiftHref?: string }) {
  const { navigate } = useListingNavigation();
  return (
    <a
      href={href}
      onClick={(event) => {
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.altKey) return;
        if (event.shiftKey && !shiftHref) return;
        event.preventDefault();
        navigate(event.shiftKey && shiftHref ? shiftHref : href);
      }}
      {...rest}
    >
      {children}
    </a>
  );
}
