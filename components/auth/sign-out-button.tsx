"use client";

import { useTransition } from "react";
import { signOutAndLeave } from "@/lib/auth/client-sign-out";

/** Signs out this browser; in the shell of every page, so it avoids next-auth/react's client bundle. */
export function SignOutButton({ className }: { className?: string }) {
  const [pending, startTransition] = useTransition();
  return (
    <button type="button" className={className} disabled={pending} onClick={() => startTransition(() => signOutAndLeave())}>
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
