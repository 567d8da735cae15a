"use client";

import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";

export interface NavItem {
  href: string;
  label: string;
  /** A count beside the label (the Health page's findings), with its words for screen readers. */
  badge?: { text: string; title: string; tone: "error" | "warning" | "ok" };
}

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

/** The portal's sections; the current one is marked for sighted and screen-reader users alike. */
export function NavLinks({ items, orientation }: { items: NavItem[]; orientation: "row" | "column" }) {
  const pathname = usePathname();
  return (
    <ul className={orientation === "row" ? "flex items-center gap-0.5" : "flex flex-col gap-1"}>
      {items.map((item) => {
        const current = pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              // Not prefetched: each is rendered twice (this row and the phone menu), and a prefetch
              // of a section runs its layout's session check, sixteen requests per page view.
              prefetch={false}
              aria-current={current ? "page" : undefined}
              className={`flex items-center whitespace-nowrap rounded-md px-2.5 py-2 text-sm font-medium ${current ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"}`}
            >
              {item.label}
              <Pending />
              {item.badge ? (
                <span
                  className={`ml-1.5 rounded-full px-1.5 py-0.5 text-xs font-semibold ${BADGE_TONES[item.badge.tone]}`}
                  title={item.badge.title}
                  data-testid="nav-health-count"
                >
                  {item.badge.text}
                  <span className="sr-only"> ({item.badge.title})</span>
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
