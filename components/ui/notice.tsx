import type { ReactNode } from "react";

type Tone = "error" | "success" | "info" | "warning";

const TONES: Record<Tone, string> = {
  error: "border-red-200 bg-red-50 text-red-800",
  success: "border-emerald-200 bg-emerald-50 text-emerald-800",
  info: "border-sky-200 bg-sky-50 text-sky-800",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
};

/**
 * A message box. Errors use role="alert" so screen readers announce them; tests pick it by its
 * test id because Next's route announcer is a second alert on every page.
 */
export function Notice({ tone = "info", title, children, testId }: { tone?: Tone; title?: string; children?: ReactNode; testId?: string }) {
  return (
    <div role={tone === "error" ? "alert" : "status"} data-testid={testId} className={`rounded-md border px-4 py-3 text-sm ${TONES[tone]}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
    </div>
  );
}
