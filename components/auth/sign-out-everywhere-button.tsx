"use client";

import { useTransition } from "react";
import { signOutAndLeave } from "@/lib/auth/client-sign-out";
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
          await signOutAndLeave();
        })
      }
    >
      Sign out of all sessions
    </Button>
  );
}
