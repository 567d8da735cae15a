import "server-only";
import type { Actor } from "@/lib/access/actor";
import { recentDeliveries, type DeliveryRecord } from "./deliveries";
import { emailAlertsAvailable, getAlertPreferences, type AlertPreferences } from "./settings";

/** How many of a tracker's last deliveries Settings lists. */
const DELIVERIES_SHOWN = 10;

/** What Settings → Alerts shows besides the tracker itself. */
export interface AlertsOverview {
  /** SMTP is configured: email alerts can be sent. */
  emailAvailable: boolean;
  preferences: AlertPreferences;
  /** The tracker's last deliveries; none without a tracker. */
  deliveries: DeliveryRecord[];
}

/** The data function of Settings → Alerts (components/settings/alerts-section.tsx). */
export async function alertsOverview(actor: Pick<Actor, "userId" | "teamId">, trackerId: string | null): Promise<AlertsOverview> {
  const [preferences, deliveries] = await Promise.all([
    getAlertPreferences(actor),
    trackerId ? recentDeliveries(actor, trackerId, DELIVERIES_SHOWN) : Promise.resolve([]),
  ]);
  return { emailAvailable: emailAlertsAvailable(), preferences, deliveries };
}
