"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

/** A read-only field with the link, selected on focus, and a copy button that says when it worked. */
export function CopyLink({ value }: { value: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
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
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setCopied("copied");
          } catch {
            setCopied("failed");
          }
        }}
      >
        Copy link
      </Button>
      <span role="status" className="w-full text-sm text-slate-600">
        {copied === "copied" ? "Copied to the clipboard." : copied === "failed" ? "Could not copy: select the link and copy it yourself." : ""}
      </span>
    </div>
  );
}
