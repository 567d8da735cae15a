import type { Webhook as FullWebhook } from "@/lib/ems";

/** What these rules read of a webhook: never its headers (a page holds their names only). */
type Webhook = Omit<FullWebhook, "headers">;
import { eventScope, hasPossibleActor, urlParts } from "./setup-data";

/**
 * What a webhook's row and page say about it at a glance: where it posts (the host, never the path,
 * which for chat and automation services holds their token) and whether it can fire at all.
 * Pure: the listing's rows, the webhook's page and the tests read the same answer.
 *
 * Missing fields mean unknown (lib/setup/setup-data.ts): a webhook is said to never fire only when
 * its fields say so, never because a field was not sent.
 */

/** Why a webhook never fires, in the words its page and row use. */
export type NeverFiresReason = "no-events" | "no-actions" | "no-actors";

export type WebhookFiring =
  /** `enabled` is false. */
  | { state: "disabled" }
  /** Enabled (or maybe), but its own settings leave nothing it could fire for. */
  | { state: "never-fires"; reasons: NeverFiresReason[] }
  | { state: "enabled" }
  /** Neither `enabled` nor what would stop it is known. */
  | { state: "unknown" };

export const NEVER_FIRES_WORDS: Readonly<Record<NeverFiresReason, string>> = {
  "no-events": "it is set up for no event",
  "no-actions": "insert, update and delete are all off",
  "no-actors": "no change by a public user, an admin user or an API call triggers it",
};

/** The reasons a webhook never fires, whatever its `enabled`; empty when it may fire (or it is unknown). */
export function neverFiresReasons(hook: Partial<Webhook>): NeverFiresReason[] {
  const reasons: NeverFiresReason[] = [];
  const scope = eventScope(hook as FullWebhook);
  if (scope.kind === "listed" && scope.eventIds.length === 0) reasons.push("no-events");
  if (hook.trigger_on_insert === false && hook.trigger_on_update === false && hook.trigger_on_delete === false) reasons.push("no-actions");
  if (!hasPossibleActor(hook as FullWebhook)) reasons.push("no-actors");
  return reasons;
}

/** Disabled first (the switch a person flips), then "never fires", then enabled. */
export function webhookFiring(hook: Partial<Webhook>): WebhookFiring {
  if (hook.enabled === false) return { state: "disabled" };
  const reasons = neverFiresReasons(hook);
  if (reasons.length > 0) return { state: "never-fires", reasons };
  return hook.enabled === true ? { state: "enabled" } : { state: "unknown" };
}

/**
 * The host a webhook posts to, with its port when it has one (`hooks.example.com`,
 * `127.0.0.1:8080`): no scheme, credentials, path or query. Empty when the URL is missing or unreadable.
 */
export function webhookHost(url: string | null | undefined): string {
  const parts = urlParts(url ?? undefined);
  return parts ? parts.display.slice(parts.scheme.length + 3) : "";
}

/** "all" for a catch-all webhook, the number of its events, or null when unknown. */
export function webhookEventCount(hook: Partial<Webhook>): "all" | number | null {
  const scope = eventScope(hook as FullWebhook);
  if (scope.kind === "all") return "all";
  if (scope.kind === "listed") return scope.eventIds.length;
  return null;
}
