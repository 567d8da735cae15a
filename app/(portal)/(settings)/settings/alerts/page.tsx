import type { Metadata } from "next";
import { alertsOverview } from "@/lib/alerts/overview";
import { requireActor } from "@/lib/auth/session";
import { listTrackers } from "@/lib/history/trackers";
import { AlertsSection } from "@/components/settings/alerts-section";
import { SettingsHeading } from "@/components/settings/settings-heading";

export const metadata: Metadata = { title: "Alerts · Settings" };

export default async function AlertsSettingsPage() {
  const actor = await requireActor();
  const trackers = await listTrackers(actor);
  // Alerts belong to a tracker: the one of this person's own account, else the team's first.
  const alertTracker = trackers.find((tracker) => tracker.isOwnAccount) ?? trackers[0] ?? null;
  const alerts = await alertsOverview(actor, alertTracker?.id ?? null);
  return (
    <div>
      <SettingsHeading title="Alerts">
        After each sync of {actor.teamName}&apos;s webhook setup, the portal can email you what changed and which health checks started failing, and post the same to a
        Slack channel.
      </SettingsHeading>
      <AlertsSection actor={actor} tracker={alertTracker ? { id: alertTracker.id, slackUrlLabel: alertTracker.slackUrlLabel } : null} overview={alerts} />
    </div>
  );
}
