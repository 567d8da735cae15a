"use client";

import { useRef } from "react";
import { useTargetFlash } from "@/components/ui/use-target-flash";

/**
 * Marks the webhook card that the address names (`#webhook-411`, the Changes feed's links) for a
 * moment, after a client navigation too (the browser's `:target` only follows full loads).
 */
export function TargetFlashScope({ children }: { children: React.ReactNode }) {
  const scope = useRef<HTMLDivElement>(null);
  useTargetFlash(scope);
  return <div ref={scope}>{children}</div>;
}
