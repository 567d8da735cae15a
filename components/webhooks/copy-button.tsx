"use client";

import { useEffect, useState } from "react";
import { Check, Copy } from "lucide-react";

/** How long the button says "Copied" before it offers to copy again. */
const COPIED_MS = 2000;

/**
 * A small button that copies one value (a URL, an id) and says so; when the browser refuses, it
 * says to copy by hand. The value is on the page already: nothing secret goes through it.
 */
export function CopyButton({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="inline-flex shrink-0 items-center gap-1 rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs text-slate-700 hover:bg-slate-50"
      aria-label={`Copy ${label}`}
      data-testid={testId}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setState("copied");
        } catch (error) {
          // Not a silent catch: the person is told to copy it by hand.
          console.warn("clipboard refused", error instanceof Error ? error.name : error);
          setState("failed");
        }
      }}
    >
      {state === "copied" ? <Check aria-hidden className="size-3" /> : <Copy aria-hidden className="size-3" />}
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Select and copy it" : "Copy"}</span>
    </button>
  );
}
