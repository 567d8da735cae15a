"use client";

import { useTransition } from "react";
import { signOut } from "next-auth/react";

/** Signs out this browser; next-auth's signOut event revokes the session row on the server. */
export function SignOutButton({ className }: { className?: string }) {
  const [pending, startTransition] = useTransition();
  return (
    <button
      type="button"
      className={className}
      disabled={pending}
      onClick={() => startTransition(() => signOut({ callbackUrl: "/sign-in" }))}
    >
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
