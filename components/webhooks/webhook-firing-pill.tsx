import type { WebhookForPage } from "@/lib/listing/header-values";
import { NEVER_FIRES_WORDS, webhookFiring } from "@/lib/setup/webhook-status";

const LABELS = { enabled: "Enabled", disabled: "Disabled", "never-fires": "Never fires", unknown: null } as const;

/**
 * A webhook's state as a pill: green "Enabled" only when it can fire; "Never fires" (amber) when its
 * own settings leave nothing to fire for, with why; "Disabled" grey. Nothing when it is unknown.
 */
export function WebhookFiringPill({
  webhook,
}: {
  webhook: Pick<
    WebhookForPage,
    "enabled" | "any_event" | "event_ids" | "trigger_on_insert" | "trigger_on_update" | "trigger_on_delete" | "public_user" | "admin_user" | "api_call"
  >;
}) {
  const firing = webhookFiring(webhook);
  const label = LABELS[firing.state];
  if (!label) return null;
  const why = firing.state === "never-fires" ? `Never fires: ${firing.reasons.map((reason) => NEVER_FIRES_WORDS[reason]).join("; ")}` : undefined;
  return (
    <span className="firing-pill" data-state={firing.state} title={why} data-testid={firing.state === "disabled" ? "webhook-disabled" : "webhook-firing"}>
      {label}
    </span>
  );
}
