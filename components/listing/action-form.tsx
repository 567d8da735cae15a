"use client";
import { useActionState } from "react";

type Result = { ok: boolean; message: string } | null;

/**
 * A form posting to a server action, with the action's answer shown beside it. The fields are
 * server-rendered children; without script the form still posts (progressive enhancement).
 */
export function ActionForm({
  action,
  children,
  className,
  label,
  testId,
}: {
  action: (previous: Result, formData: FormData) => Promise<Result>;
  children: React.ReactNode;
  className?: string;
  label?: string;
  testId?: string;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className={className} aria-label={label} data-testid={testId} aria-busy={pending || undefined}>
      <fieldset disabled={pending} className="contents">
        {children}
      </fieldset>
      {result ? (
        <p role={result.ok ? "status" : "alert"} className={`basis-full text-sm ${result.ok ? "text-green-800" : "text-red-700"}`}>
          {result.message}
        </p>
      ) : null}
    </form>
  );
}
