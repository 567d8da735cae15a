import "server-only";
import type { Actor } from "@/lib/access/actor";
import { EVENT_FIELDS, type EmsEvent, type RecordQueryFor } from "@/lib/ems";
import { loadRecord, type RecordOutcome } from "@/lib/ems-access/shared-read";

/** What an event's page reads: the event itself with every field (one credit, shared like a listing). */
export const EVENT_PAGE_QUERY: RecordQueryFor<"events"> = { fields: [...EVENT_FIELDS] };

/** The event behind `/events/{id}`, as this person's credential sees it (null: no such event). */
export function loadEventPage(actor: Actor, id: number, options: { refresh?: boolean } = {}): Promise<RecordOutcome<EmsEvent>> {
  return loadRecord(actor, "events", id, EVENT_PAGE_QUERY, options);
}
