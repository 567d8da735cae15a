import type { Metadata } from "next";
import { requireActor } from "@/lib/auth/session";
import { getCredentialSummary } from "@/lib/credentials/store";
import { listTrackers } from "@/lib/history/trackers";
import { HistorySection } from "@/components/settings/history-section";
import { SettingsHeading } from "@/components/settings/settings-heading";

export const metadata: Metadata = { title: "Change tracking · Settings" };

export default async function TrackingSettingsPage() {
  const actor = await requireActor();
  const [summary, trackers] = await Promise.all([getCredentialSummary(actor), listTrackers(actor)]);
  return (
    <div>
      <SettingsHeading title="Change tracking">
        The portal takes a snapshot of the account&apos;s webhook groups, webhooks and events on a schedule and keeps what changed, who changed it and when. Syncs spend
        at most a tenth of the account&apos;s rate limit.
      </SettingsHeading>
      <HistorySection actor={actor} trackers={trackers} hasCredential={summary?.readable ?? false} />
    </div>
  );
}
