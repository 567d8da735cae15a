import type { Metadata } from "next";
import Link from "next/link";
import { InboxPreferencesForm } from "@/components/inbox/inbox-preferences-form";
import { requireActor } from "@/lib/auth/session";
import { emailAlertsAvailable } from "@/lib/alerts/settings";
import { INBOX_KIND_INFO, INBOX_KINDS } from "@/lib/inbox/kinds";
import { inboxPreferences } from "@/lib/inbox/preferences";

export const metadata: Metadata = { title: "Inbox: email and Slack" };

/** Which kinds of inbox item also reach this person by email or in the team's Slack (their own choice). */
export default async function InboxPreferencesPage() {
  const actor = await requireActor();
  const choices = await inboxPreferences(actor);
  const rows = INBOX_KINDS.map((kind) => ({ kind, label: INBOX_KIND_INFO[kind].label, ...choices[kind] }));
  return (
    <div className="max-w-2xl space-y-4">
      <div>
        <p className="text-sm">
          <Link href="/inbox" className="text-brand-700 underline">
            Inbox
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Email and Slack</h1>
        <p className="mt-1 text-sm text-slate-600">
          Everything shows in your inbox. Tick what should also reach you by email, or be posted to the team&apos;s Slack (set in{" "}
          <Link href="/settings/alerts" className="text-brand-700 underline">
            Alerts
          </Link>
          ). By default only what waits for you (a review) and an undo applied without review come by email.
        </p>
        {emailAlertsAvailable() ? null : <p className="mt-2 text-sm text-amber-900">Email is off on this deployment: nothing is sent by email until it is set up.</p>}
      </div>
      <InboxPreferencesForm rows={rows} />
    </div>
  );
}
