"use client";

import type { toast as sonnerToast } from "sonner";

type SonnerToast = typeof sonnerToast;

/**
 * Toasts, with sonner (about 10 kB gzip) out of the first load: most page views show none. The first
 * toast loads it; the Toaster (components/ui/toaster.tsx) then mounts sonner's own and says when it
 * listens, and the toast shows. Same calls as sonner's: `toast.success(message, options)`.
 */
let wanted = false;
const wantListeners = new Set<() => void>();
let markListening!: () => void;
const listening = new Promise<void>((resolve) => {
  markListening = resolve;
});

function show(call: (toast: SonnerToast) => void): void {
  if (!wanted) {
    wanted = true;
    for (const listener of wantListeners) listener();
  }
  void Promise.all([import("sonner"), listening]).then(([sonner]) => call(sonner.toast));
}

export const toast = {
  success: (...args: Parameters<SonnerToast["success"]>) => show((toast) => toast.success(...args)),
  error: (...args: Parameters<SonnerToast["error"]>) => show((toast) => toast.error(...args)),
};

/** For the Toaster: runs `listener` at the first toast (at once if one was asked for already). */
export function onFirstToast(listener: () => void): () => void {
  if (wanted) listener();
  else wantListeners.add(listener);
  return () => wantListeners.delete(listener);
}

/** For the Toaster: sonner's own is mounted and subscribed; waiting toasts may show. */
export function toasterListening(): void {
  markListening();
}
