"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export interface NavItem {
  href: string;
  label: string;
}

/** The portal's sections; the current one is marked for sighted and screen-reader users alike. */
export function NavLinks({ items, orientation }: { items: NavItem[]; orientation: "row" | "column" }) {
  const pathname = usePathname();
  return (
    <ul className={orientation === "row" ? "flex items-center gap-1" : "flex flex-col gap-1"}>
      {items.map((item) => {
        const current = pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={current ? "page" : undefined}
              className={`block rounded-md px-3 py-2 text-sm font-medium ${current ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"}`}
            >
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
