"use client";

import { useEffect, useState } from "react";
import type { Toaster as SonnerToaster } from "sonner";
import "@/lib/security/client-style-nonce";
import { onFirstToast, toasterListening } from "./toast";

/**
 * The one place toasts appear (sonner): bottom right, above everything, announced politely.
 * Anything that finishes an action calls `toast.success(...)` from components/ui/toast; the form's
 * own inline message stays for errors, next to the field that caused them. sonner is loaded with
 * the first toast, not with the page.
 */
export function Toaster() {
  const [Sonner, setSonner] = useState<typeof SonnerToaster | null>(null);
  useEffect(() => onFirstToast(() => void import("sonner").then((sonner) => setSonner(() => sonner.Toaster))), []);
  // A parent's effect runs after its children's: sonner's Toaster has subscribed by now.
  useEffect(() => {
    if (Sonner) toasterListening();
  }, [Sonner]);
  return Sonner ? <Sonner position="bottom-right" closeButton duration={5000} toastOptions={{ className: "text-sm" }} /> : null;
}
