import { formatDate, formatDateTime, toDate, type Moment } from "@/lib/time/format";
import { viewerZone } from "@/lib/time/viewer-zone";

/**
 * A moment as the portal writes it everywhere: "27 Nov 2026, 14:05" in the viewer's time zone (from
 * the browser, components/ui/time-zone-cookie.tsx), or in UTC saying "UTC" until the zone is known.
 * The full ISO value is its title and its dateTime. A server component; nothing for a non-moment.
 */
export async function Time({
  value,
  dateOnly = false,
  className,
  testId,
}: {
  value: Moment | null | undefined;
  dateOnly?: boolean;
  className?: string;
  testId?: string;
}) {
  const date = toDate(value);
  if (!date) return null;
  const { zone, known } = await viewerZone();
  const iso = date.toISOString();
  const text = dateOnly ? formatDate(date, zone) : formatDateTime(date, zone);
  return (
    <time dateTime={iso} title={iso} className={className} data-testid={testId}>
      {text}
      {known || dateOnly ? "" : " UTC"}
    </time>
  );
}
