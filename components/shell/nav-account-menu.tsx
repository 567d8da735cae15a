"use client";

import { useEffect, useRef } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { SignOutButton } from "@/components/auth/sign-out-button";

/**
 * The account menu (a <details>, so it opens without JavaScript too): who is signed in, the
 * account's page and signing out. Escape, a click elsewhere and a navigation close it. It opens
 * downwards in the phone's top bar and upwards from the foot of the sidebar.
 */
export function NavAccountMenu({ name, email, roleLine }: { name: string; email: string; roleLine: string }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();

  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const element = menu.current;
      if (event.key !== "Escape" || !element?.open) return;
      element.open = false;
      element.querySelector("summary")?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      const element = menu.current;
      if (element?.open && !element.contains(event.target as Node)) element.open = false;
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, []);

  return (
    <details ref={menu} className="relative shrink-0 lg:w-full">
      <summary
        className="flex cursor-pointer list-none items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
        aria-label={`Account menu for ${name}`}
      >
        <span aria-hidden className="grid size-7 shrink-0 place-items-center rounded-full bg-brand-100 text-xs font-semibold text-brand-700">
          {name.slice(0, 1).toUpperCase()}
        </span>
        <span className="hidden max-w-40 truncate sm:inline lg:max-w-none" data-testid="user-name">
          {name}
        </span>
      </summary>
      <div className="absolute right-0 top-full z-40 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-2 text-sm shadow-lg lg:top-auto lg:right-auto lg:bottom-full lg:left-0 lg:mt-0 lg:mb-2 lg:w-full">
        <p className="break-words px-2 py-1 text-slate-600">
          {email}
          <br />
          {roleLine}
        </p>
        <Link href="/account" prefetch={false} className="block rounded px-2 py-1.5 hover:bg-slate-100">
          Account and security
        </Link>
        <Link href="/account/sessions" prefetch={false} className="block rounded px-2 py-1.5 hover:bg-slate-100">
          Sessions
        </Link>
        <SignOutButton className="block w-full rounded px-2 py-1.5 text-left hover:bg-slate-100" />
      </div>
    </details>
  );
}
