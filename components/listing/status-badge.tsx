import { plainValue } from "@/lib/listing/format";

const STATUS_STYLES: Record<string, string> = {
  live: "bg-green-100 text-green-900",
  draft: "bg-slate-200 text-slate-800",
  closed: "bg-blue-100 text-blue-900",
  cancelled: "bg-red-100 text-red-900",
};

/** An event's status as a coloured badge: in the events table and on an event's page. */
export function StatusBadge({ status }: { status: unknown }) {
  const text = plainValue(status);
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLES[text] ?? "bg-slate-100 text-slate-900"}`} data-testid="status-badge">
      {text || "unknown"}
    </span>
  );
}
