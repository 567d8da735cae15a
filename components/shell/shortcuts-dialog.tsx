"use client";

import { Fragment } from "react";
import { Dialog } from "radix-ui";
import { X } from "lucide-react";
import { shortcutSections } from "./shortcut-keys";

const kbd =
  "inline-block min-w-6 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-sans text-xs font-medium text-slate-700 shadow-[0_1px_0_var(--color-slate-300)]";

/** The "?" dialog: every keyboard shortcut of the portal (shortcut-keys.ts), loaded when first asked for. */
export function ShortcutsDialog({ mac, onClose }: { mac: boolean; onClose: () => void }) {
  return (
    <Dialog.Root open onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          className="fixed left-1/2 top-[8vh] z-50 max-h-[84vh] w-[calc(100%-1.5rem)] max-w-lg -translate-x-1/2 overflow-y-auto rounded-xl border border-slate-200 bg-white p-5 shadow-2xl"
          data-testid="shortcuts-dialog"
          // Handled here, so a side panel under the dialog does not close on the same key.
          onEscapeKeyDown={(event) => {
            event.preventDefault();
            onClose();
          }}
        >
          <div className="flex items-start justify-between gap-3">
            <Dialog.Title className="text-lg font-semibold text-slate-900">Keyboard shortcuts</Dialog.Title>
            <Dialog.Close className="-m-1 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900" aria-label="Close">
              <X aria-hidden className="size-5" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm text-slate-600">Letters do nothing while you type in a field.</Dialog.Description>
          {shortcutSections(mac).map((section) => (
            <section key={section.title} className="mt-4">
              <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">{section.title}</h3>
              <dl className="mt-1 divide-y divide-slate-100">
                {section.shortcuts.map((shortcut) => (
                  <div key={shortcut.does} className="flex items-center justify-between gap-3 py-1.5 text-sm" data-testid="shortcut">
                    <dt className="min-w-0 text-slate-800">{shortcut.does}</dt>
                    <dd className="flex shrink-0 items-center gap-1 text-xs text-slate-500">
                      {shortcut.keys.map((sequence, alternative) => (
                        <Fragment key={sequence.join(" ")}>
                          {alternative > 0 ? <span>or</span> : null}
                          {sequence.map((key, step) => (
                            <Fragment key={step}>
                              {step > 0 ? <span>then</span> : null}
                              <kbd className={kbd}>{key}</kbd>
                            </Fragment>
                          ))}
                        </Fragment>
                      ))}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
