import { plainValue } from "@/lib/listing/format";

const STATUS_STYLES: Record<string, string> = {
  live: "bg-green-100 text-green-900",
  draft: "bg-slate-200 text-slate-800",
  closed: "bg-blue-100 text-blue-900",
  cancelled: "bg-red-100 text-red-900",
};

/** The API's status values ("live") as people read them ("Live"); an unknown one keeps its words. */
export function statusLabel(status: string): string {
  if (!status) return "Unknown";
  const words = status.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An event's status as a labelled, coloured pill: in the events table and on an event's page. */
export function StatusBadge({ status, testId = "status-badge" }: { status: unknown; testId?: string }) {
  const text = plainValue(status);
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${STATUS_STYLES[text] ?? "bg-slate-100 text-slate-900"}`} data-testid={testId}>
      {statusLabel(text)}
    </span>
  );
}
