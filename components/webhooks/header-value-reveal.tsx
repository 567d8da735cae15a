"use client";

import { useEffect, useRef, useState } from "react";
import { revealHeaderValueAction } from "@/lib/actions/webhooks/reveal-header-value";
import { useActionForm } from "@/components/forms/use-action-form";
import { buttonClasses } from "@/components/ui/button";

interface HeaderOnPage {
  groupId: number;
  webhookId?: number;
  index: number;
  name: string;
}

/**
 * "Reveal" for one header: asks the server for its value (lib/actions/webhooks/reveal-header-value,
 * which wants a recent re-authentication: the form hook opens "Confirm it's you" and asks again),
 * shows it, and "Hide" forgets it. The value lives only in this component's state: "Hide" mounts a
 * fresh form, so the answer holding it is dropped, not just hidden.
 */
export function HeaderValueReveal(header: HeaderOnPage) {
  const [round, setRound] = useState(0);
  return <RevealForm key={round} header={header} focusOnMount={round > 0} onHide={() => setRound((n) => n + 1)} />;
}

function RevealForm({ header, focusOnMount, onHide }: { header: HeaderOnPage; focusOnMount: boolean; onHide: () => void }) {
  const { state, pending, formProps } = useActionForm(revealHeaderValueAction);
  const revealButton = useRef<HTMLButtonElement>(null);
  const hideButton = useRef<HTMLButtonElement>(null);
  const value = state.status === "success" ? state.data?.value : undefined;

  // Keyboard users keep their place: the button they pressed is replaced by the other one.
  useEffect(() => {
    if (value !== undefined) hideButton.current?.focus();
  }, [value]);
  useEffect(() => {
    if (focusOnMount) revealButton.current?.focus();
  }, [focusOnMount]);

  if (value !== undefined) {
    return (
      <span className="inline-flex min-w-0 max-w-full flex-wrap items-baseline gap-2">
        <code className="min-w-0 break-all rounded bg-slate-100 px-1 text-xs text-slate-900" data-testid="header-value">
          {value === "" ? <span className="text-slate-500">(empty)</span> : value}
        </code>
        <button
          ref={hideButton}
          type="button"
          onClick={onHide}
          className={buttonClasses("ghost", { size: "xs", className: "underline" })}
          aria-label={`Hide the value of ${header.name}`}
        >
          Hide
        </button>
      </span>
    );
  }

  const error = state.status === "error" ? (state.message ?? "That header cannot be revealed.") : null;
  return (
    <form {...formProps} className="inline-flex min-w-0 max-w-full flex-wrap items-baseline gap-2" aria-busy={pending || undefined}>
      <input type="hidden" name="groupId" value={header.groupId} />
      <input type="hidden" name="webhookId" value={header.webhookId ?? ""} />
      <input type="hidden" name="index" value={header.index} />
      <input type="hidden" name="name" value={header.name} />
      <button
        ref={revealButton}
        type="submit"
        disabled={pending}
        className={buttonClasses("ghost", { size: "xs", className: "underline" })}
        aria-label={`Reveal the value of ${header.name}`}
        data-testid="reveal-header-value"
      >
        {pending ? "Revealing…" : "Reveal"}
      </button>
      {error ? (
        <span role="alert" className="min-w-0 break-words text-xs text-red-700" data-testid="header-value-error">
          {error}
        </span>
      ) : null}
    </form>
  );
}
