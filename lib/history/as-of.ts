import "server-only";
import { cache } from "react";
import type { Actor } from "@/lib/access/actor";
import type { Webhook, WebhookGroup } from "@/lib/ems";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import { visibleTextIn } from "@/lib/text/invisible-characters";
import { ownAccountTracker, requireHistoryReader, type TrackedAccount } from "./access";
import type { MaskedHeader, RecordState } from "./records";
import { stateAsOf } from "./store";

/**
 * `?asOf=` of a group's page, in UTC: "2026-11-20T14:02:11", "2026-11-20T14:02" (the end of that
 * minute) or "2026-11-20" (the end of that day); null when absent, "invalid" when unreadable.
 */
export function parseAsOfParam(input: URLSearchParams | PageSearchParams): Date | null | "invalid" {
  const value = pageSearchParams(input).get("asOf") ?? "";
  if (value === "") return null;
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2})?)?$/.exec(value);
  if (!match) return "invalid";
  const date = new Date(`${match[1]}T${match[2] ?? "23:59"}${match[3] ?? ":59"}Z`);
  return Number.isNaN(date.getTime()) || !date.toISOString().startsWith(match[1]!) ? "invalid" : date;
}

/**
 * The team's tracker of the account the actor's own credential reads, or null: a group id means
 * something only within one account, so a group's timeline and its past come from that tracker
 * (readable by the rule's own terms: lib/history/access.ts). Once per request.
 */
export const trackerForActor = cache(async (actor: Pick<Actor, "teamId" | "userId">): Promise<TrackedAccount | null> => ownAccountTracker(actor));

/** Past header values are not shown: the list keeps the names, and a value the page shows as hidden. */
function pastHeaders(headers: unknown): { key: string; value?: string }[] | undefined {
  if (!Array.isArray(headers)) return undefined;
  return (headers as MaskedHeader[]).map((header) => ({ key: header.key }));
}

function pastWebhook(id: number, state: RecordState): Webhook {
  const { headers, group_id: _group, ...fields } = state;
  void _group;
  return { id, ...(fields as Partial<Webhook>), headers: pastHeaders(headers) as Webhook["headers"] };
}

export type GroupAsOf =
  { kind: "ok"; group: WebhookGroup; rebuiltFrom: Date } | { kind: "missing"; rebuiltFrom: Date } | { kind: "before-history"; firstSync: Date | null };

/**
 * The group and its webhooks as they were at `at`, rebuilt from the tracker's checkpoint and
 * changes. Throws HistoryAccessError when the actor may not read this tracker (NotFoundError: not
 * their team's).
 */
export async function groupAsOf(actor: Pick<Actor, "teamId" | "userId">, trackerId: string, groupId: number, at: Date): Promise<GroupAsOf> {
  await requireHistoryReader(actor, trackerId);
  const past = await stateAsOf(trackerId, at);
  if (past.kind !== "ok") return past;
  const group = past.records.get(`group:${groupId}`);
  if (!group) return { kind: "missing", rebuiltFrom: past.takenFrom };
  const webhooks = [...past.records.values()]
    .filter((record) => record.kind === "webhook" && record.state.group_id === groupId)
    .sort((a, b) => a.id - b.id)
    .map((record) => pastWebhook(record.id, record.state));
  return {
    kind: "ok",
    rebuiltFrom: past.takenFrom,
    // Stored states may predate the cleaning of EMS text (lib/ems/responses.ts): shown visible.
    group: visibleTextIn({
      id: groupId,
      name: typeof group.state.name === "string" ? group.state.name : undefined,
      notification_emails: Array.isArray(group.state.notification_emails) ? (group.state.notification_emails as string[]) : undefined,
      headers: pastHeaders(group.state.headers) as WebhookGroup["headers"],
      webhooks,
    }),
  };
}
