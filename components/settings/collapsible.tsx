"use client";

import { useId, useState, type ReactNode } from "react";

/**
 * A disclosure whose open state belongs to the person, not the server: `defaultOpen` applies when
 * it first appears only, so a re-render after saving (the page switching from "add" to "saved")
 * neither closes it nor drops the outcome message of the form inside.
 */
export function Collapsible({ title, defaultOpen, children, testId }: { title: string; defaultOpen: boolean; children: ReactNode; testId?: string }) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <div className="rounded-lg border border-slate-200" data-testid={testId}>
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full items-center justify-between gap-2 px-4 py-3 text-left text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {title}
          <span aria-hidden className={`transition-transform ${open ? "rotate-90" : ""}`}>
            ›
          </span>
        </button>
      </h3>
      <div id={id} hidden={!open} className="border-t border-slate-200 p-4">
        {children}
      </div>
    </div>
  );
}
