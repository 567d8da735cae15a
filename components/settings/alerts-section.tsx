import type { Actor } from "@/lib/access/actor";
import { MAX_ATTEMPTS, type DeliveryRecord } from "@/lib/alerts/deliveries";
import type { AlertsOverview } from "@/lib/alerts/overview";
import { canManageTeam } from "@/lib/access/roles";
import { Notice } from "@/components/ui/notice";
import { AlertPreferencesForm } from "./alert-preferences-form";
import { SendTestAlertForm } from "./send-test-alert-form";
import { SlackUrlForm } from "./slack-url-form";
import { SCROLL_TABLE_CELL, SettingsTable, type SettingsColumn } from "./settings-table";
import { Time } from "@/components/ui/time";
import { plural } from "@/lib/text/plural";

function When({ date }: { date: Date }) {
  return <Time value={date} />;
}

/**
 * Alerts (lib/alerts): the person's own alert emails, the team's Slack URL (owners), a test
 * (owners and admins) and the last deliveries. `tracker`: the team's change tracker, whose syncs
 * raise the alerts; none yet, and only the email choices show. The page loads the rest
 * (lib/alerts/overview.ts).
 */
export function AlertsSection({
  actor,
  tracker,
  overview: { emailAvailable, preferences, deliveries },
}: {
  actor: Actor;
  tracker: { id: string; slackUrlLabel: string | null } | null;
  overview: AlertsOverview;
}) {
  return (
    <section aria-labelledby="alerts-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6" data-testid="alerts-section">
      <h2 id="alerts-heading" className="text-lg font-semibold">
        Your alert emails
      </h2>
      <div className="mt-4 space-y-6">
        <AlertPreferencesForm emailChanges={preferences.emailChanges} emailHealth={preferences.emailHealth} emailAvailable={emailAvailable} />
        {tracker ? (
          <>
            <div className="space-y-3 border-t border-slate-200 pt-6">
              <h3 className="text-sm font-semibold text-slate-800">Slack</h3>
              {actor.role === "OWNER" ? (
                <SlackUrlForm trackerId={tracker.id} label={tracker.slackUrlLabel} />
              ) : (
                <p className="text-sm text-slate-700" data-testid="slack-url-label">
                  {tracker.slackUrlLabel ? `Alerts are posted to ${tracker.slackUrlLabel}.` : "Alerts are not posted to Slack."} Only owners can change this.
                </p>
              )}
              {canManageTeam(actor.role) ? <SendTestAlertForm trackerId={tracker.id} slackSet={tracker.slackUrlLabel !== null} emailAvailable={emailAvailable} /> : null}
            </div>
            <div className="space-y-3 border-t border-slate-200 pt-6">
              <h3 className="text-sm font-semibold text-slate-800">Recent deliveries</h3>
              <DeliveryList deliveries={deliveries} />
            </div>
          </>
        ) : (
          <Notice tone="info" testId="alerts-no-tracker">
            Alerts start once change history is set up for your team&apos;s EMS account.
          </Notice>
        )}
      </div>
    </section>
  );
}

function StatusText({ delivery }: { delivery: DeliveryRecord }) {
  if (delivery.status === "sent") {
    return <span className="text-emerald-800">Sent{delivery.attempts > 1 ? ` (attempt ${delivery.attempts})` : ""}</span>;
  }
  if (delivery.status === "failed") {
    return <span className="text-red-700">Failed after {plural(delivery.attempts, "attempt")}</span>;
  }
  return (
    <span className="text-amber-800">
      Pending ({delivery.attempts > 0 ? `${delivery.attempts} of ${MAX_ATTEMPTS} attempts; next try ` : "first try "}
      <When date={delivery.nextAttemptAt} />)
    </span>
  );
}

const DELIVERY_COLUMNS: SettingsColumn[] = [{ label: "When" }, { label: "To" }, { label: "Status" }, { label: "Reason" }];

function DeliveryList({ deliveries }: { deliveries: DeliveryRecord[] }) {
  if (deliveries.length === 0) return <p className="text-sm text-slate-500">No alerts sent yet.</p>;
  return (
    <SettingsTable
      fit="scroll"
      tableClassName="min-w-[40rem]"
      testId="alert-deliveries"
      caption={`The last ${deliveries.length} alert deliveries, newest first`}
      columns={DELIVERY_COLUMNS}
    >
      {deliveries.map((delivery) => (
        <tr key={delivery.id} className="align-top" data-testid="alert-delivery" data-status={delivery.status}>
          <td className={`whitespace-nowrap ${SCROLL_TABLE_CELL} text-slate-600`}>
            <When date={delivery.sentAt ?? delivery.createdAt} />
          </td>
          <td className={SCROLL_TABLE_CELL}>
            <span className="font-medium">{delivery.channel === "slack" ? "Slack" : "Email"}</span>
            {delivery.channel === "email" ? <span className="break-all text-slate-700"> {delivery.recipient}</span> : null}
            {delivery.test ? <span className="ml-1 text-xs text-slate-500">(test)</span> : null}
          </td>
          <td className={SCROLL_TABLE_CELL}>
            <StatusText delivery={delivery} />
          </td>
          <td className={`${SCROLL_TABLE_CELL} text-slate-600`}>{delivery.lastError ?? ""}</td>
        </tr>
      ))}
    </SettingsTable>
  );
}
