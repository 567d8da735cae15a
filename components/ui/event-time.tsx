import { formatDateTime, isTimeZone, wallClockInZone, zoneAbbreviation } from "@/lib/time/format";
import { viewerZone } from "@/lib/time/viewer-zone";

/**
 * An event's start or end (a wall-clock date and time in the event's own zone, as the EMS keeps
 * it): first in the viewer's zone, as every time in the portal, then, when it reads differently
 * there, the event's own as a second line ("27 Nov 2026, 09:05 EST, the event's time").
 */
export async function EventTime({ date, time, zone }: { date: unknown; time: unknown; zone: unknown }) {
  const moment = wallClockInZone(date, time, zone);
  if (!moment) return <>—</>;
  const viewer = await viewerZone();
  const iso = moment.toISOString();
  const shown = formatDateTime(moment, viewer.zone);
  const eventZone = isTimeZone(zone) ? zone : null;
  const own = eventZone ? formatDateTime(moment, eventZone) : null;
  return (
    <>
      <time dateTime={iso} title={iso} data-testid="event-time">
        {shown}
        {viewer.known ? "" : " UTC"}
      </time>
      {own && eventZone && (own !== shown || !viewer.known) && eventZone !== viewer.zone ? (
        <span className="block text-xs text-slate-500" data-testid="event-own-time">
          {own} {zoneAbbreviation(moment, eventZone)}, the event&apos;s time
        </span>
      ) : null}
    </>
  );
}
