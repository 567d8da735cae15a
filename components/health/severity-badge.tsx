import type { Severity } from "@/lib/health/types";

const STYLES: Record<Severity, string> = {
  error: "bg-red-100 text-red-900 ring-red-200",
  warning: "bg-amber-100 text-amber-900 ring-amber-200",
  notice: "bg-sky-100 text-sky-900 ring-sky-200",
};

export const SEVERITY_LABELS: Record<Severity, string> = { error: "Error", warning: "Warning", notice: "Notice" };

export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <span className={`inline-flex shrink-0 items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLES[severity]}`}>
      {SEVERITY_LABELS[severity]}
    </span>
  );
}
