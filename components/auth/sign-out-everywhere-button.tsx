"use client";

import { useTransition } from "react";
import { signOut } from "next-auth/react";
import { signOutEverywhereAction } from "@/lib/actions/auth/sign-out-everywhere";
import { Button } from "@/components/ui/button";

export function SignOutEverywhereButton() {
  const [pending, startTransition] = useTransition();
  return (
    <Button
      variant="danger"
      pending={pending}
      onClick={() =>
        startTransition(async () => {
          await signOutEverywhereAction();
          await signOut({ callbackUrl: "/sign-in" });
        })
      }
    >
      Sign out of all sessions
    </Button>
  );
}
