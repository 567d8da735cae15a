"use client";

import { useEffect, useRef } from "react";
import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { isCurrent, type NavGroup, type NavItem } from "./nav-items";

export type { NavGroup, NavItem } from "./nav-items";

const BADGE_TONES = { error: "bg-red-600 text-white", warning: "bg-amber-400 text-amber-950", ok: "bg-emerald-100 text-emerald-900" } as const;

/**
 * A dot that pulses while the section a link leads to is loading. The listings have no loading
 * skeleton of their own (a streamed skeleton delays a cold load's rows by React's reveal batching),
 * so a click there says it was heard here.
 */
function Pending() {
  const { pending } = useLinkStatus();
  return pending ? <span aria-hidden className="ml-1.5 size-1.5 animate-pulse rounded-full bg-brand-600" data-testid="nav-pending" /> : null;
}

/** One place; the current one is marked for sighted and screen-reader users alike. */
function NavLink({ item, current, onNavigate }: { item: NavItem; current: boolean; onNavigate?: () => void }) {
  return (
    <Link
      href={item.href}
      // Not prefetched: a prefetch of a section runs its layout's session check, a request per link per page view.
      prefetch={false}
      aria-current={current ? "page" : undefined}
      onClick={onNavigate}
      className={`flex items-center rounded-md px-2.5 py-1.5 text-sm font-medium ${current ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"}`}
    >
      <span className="min-w-0 truncate">{item.label}</span>
      <Pending />
      {item.badge ? (
        <span
          className={`ml-auto rounded-full px-1.5 py-0.5 text-xs font-semibold ${BADGE_TONES[item.badge.tone]}`}
          title={item.badge.title}
          data-testid="nav-health-count"
        >
          {item.badge.text}
          <span className="sr-only"> ({item.badge.title})</span>
        </span>
      ) : null}
    </Link>
  );
}

/** The portal's places in their labelled groups (the sidebar, and the phone's menu sheet). */
export function NavGroups({ groups, idPrefix, onNavigate }: { groups: NavGroup[]; idPrefix: string; onNavigate?: () => void }) {
  const pathname = usePathname();
  return (
    <div className="space-y-5">
      {groups.map((group) => {
        const id = `${idPrefix}-${group.label.toLowerCase()}`;
        return (
          <div key={group.label}>
            <p id={id} className="px-2.5 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
              {group.label}
            </p>
            <ul aria-labelledby={id} className="space-y-0.5">
              {group.items.map((item) => (
                <li key={item.href}>
                  <NavLink item={item} current={isCurrent(item, pathname)} onNavigate={onNavigate} />
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

/** A plain list of places (Settings' sections): a column beside the page at lg, a scrolling row of tabs above it below. */
export function SectionLinks({ items }: { items: readonly NavItem[] }) {
  const pathname = usePathname();
  const strip = useRef<HTMLUListElement>(null);
  // In the phone's scrolling row, the current section is in sight (not scrolled off to the right).
  useEffect(() => {
    const list = strip.current;
    const current = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !current || list.scrollWidth <= list.clientWidth) return;
    list.scrollLeft = current.offsetLeft - (list.clientWidth - current.offsetWidth) / 2;
  }, [pathname]);
  return (
    <ul ref={strip} className="relative -mx-1 flex gap-1 overflow-x-auto px-1 pb-1 lg:mx-0 lg:flex-col lg:gap-0.5 lg:overflow-visible lg:px-0 lg:pb-0">
      {items.map((item) => {
        const current = isCurrent(item, pathname);
        return (
          <li key={item.href} className="shrink-0">
            <Link
              href={item.href}
              prefetch={false}
              aria-current={current ? "page" : undefined}
              className={`flex items-center whitespace-nowrap rounded-md px-2.5 py-1.5 text-sm font-medium ${current ? "bg-brand-50 text-brand-700 ring-1 ring-inset ring-brand-100 lg:ring-0" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"}`}
            >
              {item.label}
              <Pending />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
