"use client";

import { Toaster as Sonner } from "sonner";
import "@/lib/security/client-style-nonce";

/**
 * The one place toasts appear (sonner): bottom right, above everything, announced politely.
 * Anything that finishes an action calls `toast.success(...)` from "sonner"; the form's own inline
 * message stays for errors, next to the field that caused them.
 */
export function Toaster() {
  return <Sonner position="bottom-right" closeButton duration={5000} toastOptions={{ className: "text-sm" }} />;
}
