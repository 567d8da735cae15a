"use client";

import { useEffect, useState } from "react";
import { Check, Copy } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";

/** How long the button says "Copied" before it offers to copy again. */
const COPIED_MS = 2000;

/**
 * A read-only field with the link, selected on focus, and a copy button that says "Copied" for two
 * seconds (and a toast) when it worked, or how to copy by hand when the browser refused.
 */
export function CopyLink({ value }: { value: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (copied !== "copied") return;
    const timer = setTimeout(() => setCopied("idle"), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1">
        <label htmlFor="invitation-link" className="block text-sm font-medium text-slate-700">
          Invitation link
        </label>
        <input
          id="invitation-link"
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs"
          data-testid="invitation-link"
        />
      </div>
      <Button
        type="button"
        variant="secondary"
        className="min-w-32"
        data-testid="copy-invitation-link"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setCopied("copied");
            toast.success("Invitation link copied.");
          } catch {
            setCopied("failed");
          }
        }}
      >
        {copied === "copied" ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
        {copied === "copied" ? "Copied" : "Copy link"}
      </Button>
      <span role="status" className="w-full text-sm text-slate-600">
        {copied === "failed" ? "Could not copy: select the link and copy it yourself." : ""}
      </span>
    </div>
  );
}
