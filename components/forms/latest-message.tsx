"use client";

import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import type { ActionState } from "@/lib/forms/action-state";

type Scope = { latest: string | null; setLatest: (id: string) => void };
const LatestMessage = createContext<Scope | null>(null);

/**
 * Several forms side by side (save, test, switch to the sandbox): only the message of the one used
 * last is shown, so that outcomes replace each other instead of stacking up.
 */
export function LatestMessageScope({ children }: { children: ReactNode }) {
  const [latest, setLatest] = useState<string | null>(null);
  return <LatestMessage.Provider value={{ latest, setLatest }}>{children}</LatestMessage.Provider>;
}

/** Whether the message `id` (for this action state) is the one to show; always, outside a scope. */
export function useIsLatestMessage(id: string, state: ActionState<unknown>): boolean {
  const scope = useContext(LatestMessage);
  const setLatest = scope?.setLatest;
  useEffect(() => {
    if (state.status !== "idle") setLatest?.(id);
  }, [id, state, setLatest]);
  return !scope || scope.latest === null || scope.latest === id;
}
