import type { Severity } from "@/lib/health/types";

export const SEVERITY_LABELS: Record<Severity, string> = { error: "Error", warning: "Warning", notice: "Notice" };

/** Its look is app/globals.css's `severity-badge` (Health repeats it on every finding). */
export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <span className="severity-badge" data-severity={severity}>
      {SEVERITY_LABELS[severity]}
    </span>
  );
}
