"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML and during hydration, true once the page is interactive. For a
 * `data-ready` mark that tests wait for, and for what only works with script (a GET form's submit
 * button shown only without it, say). No effect and no extra render.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
