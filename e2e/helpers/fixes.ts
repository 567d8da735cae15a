import { runHealthChecks } from "@/lib/health/rules";
import type { EmsEvent, WebhookGroup } from "@/lib/ems";
import type { SetupData, TriggerKey } from "@/lib/setup/setup-data";
import { encodePart } from "../listing-helpers";

/**
 * For e2e/fixes.spec.ts: an account's setup read straight from a sandbox's API (as the EMS's own
 * users would see it), and the Health check the required triggers policy acts on, run on it.
 */

/** Every group (with its webhooks) and event of an account, read over the sandbox's API. */
export async function readAccount(baseUrl: string, account: { key: string; secret: string }): Promise<SetupData> {
  const basic = Buffer.from(`${encodePart(account.key)}:${encodePart(account.secret)}`).toString("base64");
  const token = (await (
    await fetch(`${baseUrl}/api/v1/oauth2/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" },
      body: "grant_type=client_credentials",
    })
  ).json()) as { access_token: string };
  const all = async <T>(resource: string, query: string): Promise<T[]> => {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const response = await fetch(`${baseUrl}/api/v1/${resource}?${query}&per-page=200&page=${page}`, { headers: { Authorization: `Bearer ${token.access_token}` } });
      const body = (await response.json()) as { items: T[]; _meta: { pageCount: number } };
      items.push(...body.items);
      if (page >= body._meta.pageCount) return items;
    }
  };
  // The fields the portal's own setup reads (lib/setup/load.ts): a listing's default fields leave out an event's status and dates.
  return {
    groups: await all<WebhookGroup>("webhook-groups", "fields=id,name,headers,notification_emails&expand=webhooks&sort=id"),
    events: await all<EmsEvent>("events", "fields=id,name,status,start_date,end_date,start_time,end_time,timezone&sort=id"),
  };
}

const missingOf = (data: SetupData, trigger: TriggerKey) =>
  runHealthChecks(data, { now: new Date(), requiredTriggers: [trigger] }).filter((finding) => finding.ruleId === "required-trigger-missing");

/**
 * A required trigger some live events of the account miss, and one webhook that serves them all once
 * they are added to it: what the team names as the webhook every new event should have.
 */
export function requirementAndWebhook(data: SetupData): { trigger: TriggerKey; webhookId: number; events: number[] } | null {
  for (const trigger of ["registrant:insert", "registrant:update", "registrant:delete", "session:insert", "attendee:insert"] as TriggerKey[]) {
    const missing = missingOf(data, trigger);
    if (missing.length === 0) continue;
    const events = missing.flatMap((finding) => finding.subjects.map((subject) => subject.id));
    for (const group of data.groups)
      for (const hook of group.webhooks ?? []) {
        const groups = data.groups.map((each) =>
          each !== group ? each : { ...each, webhooks: (each.webhooks ?? []).map((h) => (h === hook ? { ...h, event_ids: [...(h.event_ids ?? []), ...events] } : h)) },
        );
        if (missingOf({ ...data, groups }, trigger).length === 0) return { trigger, webhookId: hook.id, events };
      }
  }
  return null;
}

export { missingOf };
