import { describe, expect, it } from "vitest";
import type { Webhook, WebhookGroup } from "@/lib/ems";
import type { PastRecordWithSecrets } from "@/lib/history/store";
import { editsBackTo } from "@/lib/plans/back-to";

/** The edits that put a group back as history says it was (lib/plans/back-to.ts), on hand-made states. */

const masked = (...keys: string[]) => keys.map((key) => ({ key, hash: `h-${key}` }));

function past(records: PastRecordWithSecrets[]): Map<string, PastRecordWithSecrets> {
  return new Map(records.map((record) => [`${record.kind}:${record.id}`, record]));
}

const pastGroup = (extra: Partial<PastRecordWithSecrets> = {}): PastRecordWithSecrets => ({
  kind: "group",
  id: 1,
  groupId: 1,
  name: "Ops",
  state: { name: "Ops", notification_emails: ["a@example.com", "b@example.com"], headers: masked("A", "b") },
  secrets: {
    headers: [
      ["A", "1"],
      ["b", "2"],
    ],
  },
  ...extra,
});

const pastHook = (id: number, groupId: number, state: Record<string, unknown> = {}): PastRecordWithSecrets => ({
  kind: "webhook",
  id,
  groupId,
  name: `Hook ${id}`,
  state: {
    group_id: groupId,
    name: `Hook ${id}`,
    url: `https://h${id}.example.com/`,
    trigger_object: "registrant",
    headers: [],
    ...state,
  } as PastRecordWithSecrets["state"],
  secrets: {},
});

const hookNow = (id: number, groupId: number, extra: Partial<Webhook> = {}): Webhook =>
  ({ id, group_id: groupId, name: `Hook ${id}`, url: `https://h${id}.example.com/`, trigger_object: "registrant", headers: [], ...extra }) as Webhook;

function today(group: WebhookGroup, hooks: Webhook[], groups: number[] = [1]) {
  const byId = new Map(hooks.map((hook) => [hook.id, hook]));
  return { group, webhook: (id: number) => byId.get(id), groupExists: (id: number) => groups.includes(id) };
}

describe("putting a group back as it was", () => {
  it("sees no change in lists and headers that differ only in order (history keeps them sorted)", () => {
    const group: WebhookGroup = {
      id: 1,
      name: "Ops",
      notification_emails: ["b@example.com", "a@example.com"],
      headers: [
        { key: "b", value: "2" },
        { key: "A", value: "1" },
      ],
      webhooks: [hookNow(5, 1)],
    };
    expect(editsBackTo(1, past([pastGroup(), pastHook(5, 1)]), today(group, [hookNow(5, 1)])).edits).toEqual([]);
  });

  it("puts back a changed header value in today's order, and says which values it does not know", () => {
    const group: WebhookGroup = {
      id: 1,
      name: "Ops",
      notification_emails: ["a@example.com", "b@example.com"],
      headers: [
        { key: "b", value: "stolen" },
        { key: "A", value: "1" },
      ],
      webhooks: [hookNow(5, 1, { headers: [{ key: "K", value: "now" }] })],
    };
    const unknown = pastHook(5, 1, { headers: masked("K") });
    const result = editsBackTo(1, past([pastGroup(), unknown]), today(group, [hookNow(5, 1, { headers: [{ key: "K", value: "now" }] })]));
    expect(result.edits).toEqual([
      {
        kind: "group.update",
        id: 1,
        values: {
          exactHeaders: [
            { key: "b", value: "2" },
            { key: "A", value: "1" },
          ],
        },
      },
    ]);
    expect(result.headersUnknown).toEqual(["webhook “Hook 5”"]);
  });

  it("a webhook that moved in goes back to its group if that group still exists, else it is deleted; one that left comes back", () => {
    const group: WebhookGroup = { id: 1, name: "Ops", notification_emails: ["a@example.com", "b@example.com"], headers: [], webhooks: [hookNow(7, 1), hookNow(8, 1)] };
    const state = past([
      pastGroup({ state: { name: "Ops", notification_emails: ["a@example.com", "b@example.com"], headers: [] } }),
      pastHook(5, 1),
      pastHook(7, 2),
      pastHook(8, 3),
    ]);
    const { edits } = editsBackTo(1, state, today(group, [hookNow(5, 4), hookNow(7, 1), hookNow(8, 1)], [1, 2, 4]));
    expect(edits).toEqual([
      { kind: "webhook.update", id: 5, values: { group_id: 1 } },
      { kind: "webhook.update", id: 7, values: { group_id: 2 } },
      { kind: "webhook.delete", id: 8 },
    ]);
  });

  it("a webhook gone since is created again in the group with its fields and header values", () => {
    const group: WebhookGroup = { id: 1, name: "Ops", notification_emails: ["a@example.com", "b@example.com"], headers: [], webhooks: [] };
    const gone = { ...pastHook(9, 1, { headers: masked("K"), enabled: false }), secrets: { headers: [["K", "v"]] as [string, string][] } };
    const state = past([pastGroup({ state: { name: "Ops", notification_emails: ["a@example.com", "b@example.com"], headers: [] } }), gone]);
    expect(editsBackTo(1, state, today(group, [])).edits).toEqual([
      {
        kind: "webhook.create",
        values: { group_id: 1, name: "Hook 9", url: "https://h9.example.com/", trigger_object: "registrant", enabled: false, exactHeaders: [{ key: "K", value: "v" }] },
      },
    ]);
  });
});
