"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

/**
 * The ten recovery codes, shown once (only their digests are stored): copy, download, and a button
 * to go on once they are saved somewhere safe.
 */
export function RecoveryCodes({ codes, onDone, doneLabel = "I have saved these codes" }: { codes: string[]; onDone: () => void; doneLabel?: string }) {
  const [copied, setCopied] = useState(false);
  const text = `EMS Portal recovery codes\nEach code works once. Keep them somewhere safe.\n\n${codes.join("\n")}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  function download() {
    const href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = href;
    link.download = "ems-portal-recovery-codes.txt";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  }

  return (
    <div className="space-y-4" data-testid="recovery-codes">
      <Notice tone="warning" title="Save your recovery codes now">
        If you lose your phone, each of these codes signs you in once instead of a code from the app. This is the only time they are shown.
      </Notice>
      <ol className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-lg border border-slate-200 bg-slate-50 p-4 font-mono text-sm sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code} className="tabular-nums" data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={copy}>
          {copied ? "Copied" : "Copy"}
        </Button>
        <Button type="button" variant="secondary" onClick={download}>
          Download .txt
        </Button>
        <Button type="button" onClick={onDone} className="sm:ml-auto">
          {doneLabel}
        </Button>
      </div>
    </div>
  );
}
