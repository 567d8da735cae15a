import type { EmsEvent, Webhook, WebhookGroup } from "@/lib/ems";
import type { SetupData } from "@/lib/setup/setup-data";

/**
 * Small, fully specified records for the health and coverage tests: each test overrides only what
 * it is about, so a finding can only come from that.
 */

/** The tests' clock: 2026-06-15 (UTC). */
export const NOW = new Date("2026-06-15T12:00:00Z");

let nextId = 1000;
const freshId = () => ++nextId;

export function webhook(overrides: Partial<Webhook> = {}): Webhook {
  const id = overrides.id ?? freshId();
  return {
    id,
    name: `Hook ${id}`,
    url: `https://hooks.example.com/${id}`,
    trigger_object: "registrant",
    trigger_on_insert: true,
    trigger_on_update: true,
    trigger_on_delete: true,
    public_user: true,
    admin_user: true,
    api_call: false,
    any_event: false,
    event_ids: [1],
    enabled: true,
    content_type: "json",
    headers: [],
    ...overrides,
  };
}

export function group(overrides: Partial<WebhookGroup> = {}): WebhookGroup {
  const id = overrides.id ?? freshId();
  return { id, name: `Group ${id}`, headers: [], notification_emails: ["ops@example.com"], webhooks: [], ...overrides };
}

export function event(overrides: Partial<EmsEvent> = {}): EmsEvent {
  const id = overrides.id ?? freshId();
  return { id, name: `Event ${id}`, status: "live", start_date: "2026-06-10", end_date: "2026-06-20", timezone: "Europe/Zurich", ...overrides };
}

/** Event 1 live, 2 draft (upcoming), 3 closed, 4 cancelled, 5 live but past its end date. */
export function standardEvents(): EmsEvent[] {
  return [
    event({ id: 1, name: "Summit", status: "live" }),
    event({ id: 2, name: "Autumn fair", status: "draft", start_date: "2026-09-01", end_date: "2026-09-02" }),
    event({ id: 3, name: "Spring gala", status: "closed", start_date: "2026-03-01", end_date: "2026-03-01" }),
    event({ id: 4, name: "Winter ball", status: "cancelled", start_date: "2026-12-01", end_date: "2026-12-01" }),
    event({ id: 5, name: "Old expo", status: "live", start_date: "2025-01-10", end_date: "2025-01-12" }),
  ];
}

export function setup(groups: WebhookGroup[], events: EmsEvent[] = standardEvents()): SetupData {
  return { groups, events };
}
