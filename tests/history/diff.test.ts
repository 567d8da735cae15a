// The diff of an account's setup (lib/history/records.ts, diff.ts, describe.ts): every kind of field,
// header values masked, unknown fields kept, the sentences the feed and alerts show.
import { describe, expect, it } from "vitest";
import { describeChange } from "@/lib/history/describe";
import { diffSetup, stateDigest, type KnownRecord } from "@/lib/history/diff";
import { headerHasher, recordKey, snapshotRecords } from "@/lib/history/records";
import type { SetupData } from "@/lib/setup/setup-data";

const hash = headerHasher("a-test-secret-of-at-least-32-characters!", "tracker-1");
const SECRET = "sk_live_51HXYZsecretvalue";

function setup(
  overrides: { url?: string; enabled?: boolean; header?: string | null; groupName?: string; eventIds?: number[]; withHook?: boolean; dropNotes?: boolean } = {},
): SetupData {
  const hook = {
    id: 11,
    name: "CRM sync",
    url: overrides.url ?? "https://hooks.example.com/a",
    trigger_object: "registrant",
    trigger_on_insert: true,
    trigger_on_update: true,
    trigger_on_delete: false,
    enabled: overrides.enabled ?? true,
    event_ids: overrides.eventIds ?? [3, 1, 2],
    any_event: false,
    headers: overrides.header === null ? [] : [{ key: "X-Api-Key", value: overrides.header ?? SECRET }],
    ...(overrides.dropNotes ? {} : { notes: "first" }),
    updated_by: "jane@example.com",
    updated_at: "2026-11-20 14:02:11",
  };
  return {
    groups: [
      {
        id: 1,
        name: overrides.groupName ?? "Finance ledger",
        notification_emails: ["b@example.com", "a@example.com"],
        headers: [],
        webhooks: overrides.withHook === false ? [] : [hook],
      },
    ],
    events: [{ id: 5, name: "Summit", status: "live", start_date: "2027-01-01" }],
  };
}

/** What the store would hold after storing `data`: every record, with its state. */
function known(data: SetupData): Map<string, KnownRecord> {
  return new Map(
    snapshotRecords(data, hash).map((record) => [
      recordKey(record.kind, record.id),
      { kind: record.kind, id: record.id, groupId: record.groupId, name: record.name, digest: stateDigest(record.state), state: record.state, secrets: record.secrets },
    ]),
  );
}

describe("snapshotRecords", () => {
  it("masks header values with a keyed hash and keeps the values beside the state; sorts unordered lists", () => {
    const records = snapshotRecords(setup(), hash);
    const hook = records.find((record) => record.kind === "webhook")!;
    expect(JSON.stringify(hook.state)).not.toContain(SECRET);
    expect(hook.state.headers).toEqual([{ key: "X-Api-Key", hash: hash(SECRET) }]);
    expect(hook.secrets.headers).toEqual([["X-Api-Key", SECRET]]);
    expect(hook.state.event_ids).toEqual([1, 2, 3]);
    expect(hook.state.group_id).toBe(1);
    expect(hook.updatedBy).toBe("jane@example.com");
    expect(records.find((record) => record.kind === "group")!.state.notification_emails).toEqual(["a@example.com", "b@example.com"]);
    // Another tracker hashes the same value differently: hashes say nothing across accounts.
    expect(headerHasher("a-test-secret-of-at-least-32-characters!", "tracker-2")(SECRET)).not.toBe(hash(SECRET));
  });
});

describe("diffSetup", () => {
  it("finds nothing when nothing changed, even with lists in another order", () => {
    expect(diffSetup(known(setup()), snapshotRecords(setup({ eventIds: [2, 3, 1] }), hash))).toEqual({ changes: [], upserts: [], removed: [] });
  });

  it("one change per field, with who and when from the EMS", () => {
    const diff = diffSetup(known(setup()), snapshotRecords(setup({ url: "https://hooks.example.com/b", enabled: false, eventIds: [1, 2] }), hash));
    expect(diff.changes.map((change) => [change.field, change.before, change.after])).toEqual([
      ["enabled", true, false],
      ["event_ids", [1, 2, 3], [1, 2]],
      ["url", "https://hooks.example.com/a", "https://hooks.example.com/b"],
    ]);
    expect(diff.changes.every((change) => change.changedBy === "jane@example.com" && change.kind === "webhook" && change.recordName === "CRM sync")).toBe(true);
    expect(diff.upserts).toHaveLength(1);
  });

  it("a header value change is found by its hash, and the values travel only as secrets", () => {
    const diff = diffSetup(known(setup()), snapshotRecords(setup({ header: "sk_live_rotated" }), hash));
    expect(diff.changes).toHaveLength(1);
    const [change] = diff.changes;
    expect(change.field).toBe("headers");
    expect(JSON.stringify([change.before, change.after])).not.toMatch(/sk_live/);
    expect(change.secrets).toEqual({ before: [["X-Api-Key", SECRET]], after: [["X-Api-Key", "sk_live_rotated"]] });
    expect(describeChange({ ...change, groupName: "Finance ledger" })).toBe("Webhook “CRM sync” (#11) in group “Finance ledger”: value of header X-Api-Key changed");
    expect(describeChange({ ...diffSetup(known(setup()), snapshotRecords(setup({ header: null }), hash)).changes[0]!, groupName: null })).toMatch(
      /header X-Api-Key removed$/,
    );
  });

  it("added and removed records carry their whole state; a group rename names the group", () => {
    const removed = diffSetup(known(setup()), snapshotRecords(setup({ withHook: false }), hash));
    expect(removed.changes).toMatchObject([{ kind: "webhook", recordId: 11, change: "removed", before: { url: "https://hooks.example.com/a" }, after: null }]);
    expect(removed.removed).toEqual([{ kind: "webhook", id: 11 }]);
    const added = diffSetup(known(setup({ withHook: false })), snapshotRecords(setup(), hash));
    expect(added.changes).toMatchObject([{ kind: "webhook", recordId: 11, change: "added", after: { url: "https://hooks.example.com/a" } }]);
    const renamed = diffSetup(known(setup()), snapshotRecords(setup({ groupName: "Finance" }), hash));
    expect(describeChange({ ...renamed.changes[0]!, groupName: null })).toBe("Webhook group “Finance” (#1): name changed from “Finance ledger” to “Finance”");
  });

  it("a field the API stopped sending is unknown, not a change; its last value is kept", () => {
    const diff = diffSetup(known(setup()), snapshotRecords(setup({ dropNotes: true }), hash));
    expect(diff.changes).toEqual([]);
    expect(diff.upserts).toEqual([]);
  });
});

describe("describeChange", () => {
  const change = { kind: "webhook" as const, recordId: 11, recordName: "CRM sync", groupId: 1, groupName: "Finance ledger", change: "changed" as const, field: "url" };
  it("in the portal, the whole URL without credentials; in an alert, its scheme and host only (a path may carry a token)", () => {
    const url = { ...change, before: "https://hooks.slack.com/services/T000/B000/XXXX", after: "https://user:pw@hooks.example.com/b?token=1" };
    expect(describeChange(url)).toBe(
      "Webhook “CRM sync” (#11) in group “Finance ledger”: URL changed from https://hooks.slack.com/services/T000/B000/XXXX to https://hooks.example.com/b?token=1",
    );
    expect(describeChange(url, { forAlert: true })).toBe(
      "Webhook “CRM sync” (#11) in group “Finance ledger”: URL changed from https://hooks.slack.com/… to https://hooks.example.com/…",
    );
  });
  it("enabled, moved, booleans", () => {
    expect(describeChange({ ...change, field: "enabled", before: true, after: false })).toMatch(/: disabled$/);
    expect(describeChange({ ...change, field: "group_id", before: 1, after: 2 })).toMatch(/: moved from group #1 to group #2$/);
    expect(describeChange({ ...change, field: "trigger_on_delete", before: false, after: true })).toMatch(/: sends deletions changed from no to yes$/);
  });
});
