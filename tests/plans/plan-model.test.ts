// The pure half of a plan: what an operation says in words, what bulk edits change, the setup after
// a plan and its impact on health and coverage, and the inverse that undoes it.
import { describe, expect, it } from "vitest";
import type { Webhook } from "@/lib/ems";
import { webhookBulkChanges, groupBulkChanges } from "@/lib/plans/bulk";
import { describeOperation } from "@/lib/plans/diff";
import { planImpact } from "@/lib/plans/impact";
import { differsFrom, type DraftOperation } from "@/lib/plans/operations";
import { simulatePlan } from "@/lib/plans/simulate";
import { inverseOperations } from "@/lib/plans/undo";
import { event, group, NOW, webhook } from "../health/builders";

const context = { now: NOW, requiredTriggers: [] };

function update(hook: Webhook, changes: DraftOperation["changes"]): DraftOperation {
  return { operation: "webhooks.update", recordId: hook.id, before: hook, changes };
}

describe("an operation in words", () => {
  it("names each changed field before → after, and a header by name only", () => {
    const hook = webhook({ id: 411, name: "Orders", url: "http://a.example/x", headers: [{ key: "X-Api-Key", value: "s3cret-old" }] });
    const diff = describeOperation(update(hook, { url: "https://a.example/x", enabled: false, headers: [{ key: "X-Api-Key", value: "s3cret-new" }] }));
    expect(diff.sentence).toBe("Change the URL, enabled and headers of webhook “Orders” (#411)");
    expect(diff.fields).toEqual([
      { field: "url", label: "URL", before: "http://a.example/x", after: "https://a.example/x" },
      { field: "enabled", label: "Enabled", before: "on", after: "off" },
      { field: "headers", label: "Headers", before: "X-Api-Key", after: "X-Api-Key (new value)" },
    ]);
    expect(JSON.stringify(diff)).not.toMatch(/s3cret/);
  });

  it("says a group by its name and a delete by its record", () => {
    const hook = webhook({ id: 7, name: "Badges", group_id: 1 });
    const names = { group: (id: number) => ({ 1: "Main", 2: "Backup" })[id] };
    expect(describeOperation(update(hook, { group_id: 2 }), names).fields).toEqual([{ field: "group_id", label: "Group", before: "Main (#1)", after: "Backup (#2)" }]);
    expect(describeOperation({ operation: "webhooks.delete", recordId: 7, before: hook, changes: {} }).sentence).toBe("Delete webhook “Badges” (#7)");
  });
});

describe("bulk edits", () => {
  it("replace a host only where it is, keeping path and query", () => {
    const edit = { kind: "replace-host", from: "old.example.com", to: "new.example.com" } as const;
    expect(webhookBulkChanges(webhook({ url: "https://old.example.com/in?x=1" }), edit)).toEqual({ url: "https://new.example.com/in?x=1" });
    expect(webhookBulkChanges(webhook({ url: "https://other.example.com/in" }), edit)).toBeNull();
  });

  it("set a header value by key, ignoring case, keeping the others' values", () => {
    const hook = webhook({
      headers: [
        { key: "x-api-key", value: "a" },
        { key: "X-Team", value: "t" },
      ],
    });
    expect(webhookBulkChanges(hook, { kind: "set-header", key: "X-Api-Key", value: "b" })).toEqual({
      headers: [
        { key: "x-api-key", value: "b" },
        { key: "X-Team", value: "t" },
      ],
    });
    expect(webhookBulkChanges(hook, { kind: "set-header", key: "X-API-KEY", value: "a" })).toBeNull();
  });

  it("leave a record that already is so out, and never add events to a catch-all", () => {
    expect(webhookBulkChanges(webhook({ enabled: false }), { kind: "set-enabled", enabled: false })).toBeNull();
    expect(webhookBulkChanges(webhook({ any_event: true, event_ids: [] }), { kind: "add-events", eventIds: [5] })).toBeNull();
    expect(webhookBulkChanges(webhook({ event_ids: [1] }), { kind: "add-events", eventIds: [5, 1] })).toEqual({ event_ids: [1, 5] });
    // Events it fires for already, held twice: adding them again is no change.
    expect(webhookBulkChanges(webhook({ event_ids: [1, 5, 1] }), { kind: "add-events", eventIds: [5] })).toBeNull();
    expect(groupBulkChanges(group({ notification_emails: ["Ops@example.com"] }), { kind: "add-notification-email", email: "ops@example.com" })).toBeNull();
  });
});

describe("the setup after a plan, and its impact", () => {
  it("counts the findings it fixes and adds, and names a live event that loses its only webhook", () => {
    const plain = webhook({ id: 1, url: "http://plain.example.com/in", event_ids: [1], trigger_object: "contact" });
    const only = webhook({ id: 2, event_ids: [1], trigger_object: "registrant", trigger_on_update: false, trigger_on_delete: false });
    const data = { groups: [group({ id: 10, webhooks: [plain, only] })], events: [event({ id: 1, name: "Spring Summit", status: "live" })] };
    const impact = planImpact(data, [update(plain, { url: "https://plain.example.com/in" }), update(only, { enabled: false })], context);
    expect(impact.fixed.map((finding) => finding.ruleId)).toContain("plain-http-url");
    expect(impact.coverageLost).toEqual([expect.objectContaining({ eventId: 1, live: true, trigger: "registrant:insert", before: "ok" })]);
    expect(impact.summary[0]).toMatch(/^Fixes \d+ findings?, adds/);
    expect(impact.summary[1]).toBe("Live event “Spring Summit” loses its only registrant insert webhook.");
    // The input is not changed.
    expect(data.groups[0].webhooks![1].enabled).toBe(true);
  });

  it("undoing it gains back what was lost: each changed cell once, as it was and as it will be", () => {
    const only = webhook({ id: 2, group_id: 10, event_ids: [1], trigger_object: "registrant", trigger_on_update: false, trigger_on_delete: false, enabled: false });
    const data = { groups: [group({ id: 10, webhooks: [only] })], events: [event({ id: 1, name: "Spring Summit", status: "live" }), event({ id: 3, name: "Other" })] };
    const impact = planImpact(data, [update(only, { enabled: true })], context);
    expect(impact.coverageLost).toEqual([]);
    expect(impact.coverageGained).toEqual([{ eventId: 1, eventName: "Spring Summit", live: true, trigger: "registrant:insert", before: "degraded", after: "ok" }]);
  });

  it("moves a webhook between groups, creates and deletes", () => {
    const a = webhook({ id: 1, group_id: 10 });
    const b = webhook({ id: 2, group_id: 10 });
    const data = { groups: [group({ id: 10, webhooks: [a, b] }), group({ id: 20, webhooks: [] })], events: [] };
    const after = simulatePlan(data, [
      update(a, { group_id: 20 }),
      { operation: "webhooks.delete", recordId: 2, before: b, changes: {} },
      { operation: "webhooks.create", before: null, changes: { name: "New", url: "https://n.example", trigger_object: "event", group_id: 10 } },
    ]);
    expect(after.groups.map((g) => [g.id, g.webhooks!.map((hook) => hook.id)])).toEqual([
      [10, [-1]],
      [20, [1]],
    ]);
  });

  it("copies only the groups a plan touches, leaves the setup as it was, and follows a webhook moved twice", () => {
    const a = webhook({ id: 1, group_id: 10 });
    const b = webhook({ id: 2, group_id: 30 });
    const untouched = group({ id: 30, webhooks: [b] });
    const data = Object.freeze({
      groups: Object.freeze([group({ id: 10, webhooks: [a] }), group({ id: 20, webhooks: [] }), untouched].map((g) => Object.freeze(g))),
      events: [],
    });
    const after = simulatePlan(data, [
      update(a, { group_id: 20 }),
      update(a, { group_id: 10, name: "Back" }),
      { operation: "webhook-groups.update", recordId: 20, before: null, changes: { name: "Renamed" } },
    ]);
    // A 5,000-group account's plan page copied every group: the ones no operation names stay the same objects.
    expect(after.groups[2]).toBe(untouched);
    expect(after.groups.map((g) => [g.id, g.name, g.webhooks!.map((hook) => [hook.id, hook.name])])).toEqual([
      [10, data.groups[0].name, [[1, "Back"]]],
      [20, "Renamed", []],
      [30, untouched.name, [[2, b.name]]],
    ]);
    expect(data.groups[0].webhooks).toEqual([a]);
    expect(data.groups[1].webhooks).toEqual([]);
  });

  it("an empty plan fixes nothing and adds nothing", () => {
    const data = { groups: [group({ id: 10, webhooks: [webhook({ id: 1 })] })], events: [event({ id: 1 })] };
    expect(planImpact(data, [], context)).toMatchObject({ fixed: [], added: [], coverageLost: [], coverageGained: [], summary: ["Fixes no findings, adds none."] });
  });
});

describe("undo", () => {
  it("puts an update's fields back, header values included, last operation first", () => {
    const hook = webhook({ id: 5, url: "https://a.example", headers: [{ key: "X-Key", value: "old" }] });
    const first = update(hook, { url: "https://b.example" });
    const second = update({ ...hook, url: "https://b.example" }, { headers: [{ key: "X-Key", value: "new" }] });
    const { operations, cannot } = inverseOperations([first, second]);
    expect(cannot).toEqual([]);
    expect(operations.map((op) => [op.operation, op.recordId, op.changes])).toEqual([
      ["webhooks.update", 5, { headers: [{ key: "X-Key", value: "old" }] }],
      ["webhooks.update", 5, { url: "https://a.example" }],
    ]);
  });

  it("deletes what a plan created and re-creates what it deleted", () => {
    const gone = webhook({ id: 9, name: "Gone", group_id: 3, headers: [{ key: "A", value: "v" }] });
    const { operations, cannot } = inverseOperations([
      { operation: "webhooks.create", recordId: 77, before: null, changes: { name: "Made", url: "https://m.example", trigger_object: "event" } },
      { operation: "webhooks.delete", recordId: 9, before: gone, changes: {} },
      { operation: "webhooks.create", before: null, changes: { name: "Lost id", url: "https://l.example", trigger_object: "event" } },
    ]);
    expect(operations[0]).toMatchObject({ operation: "webhooks.create", changes: { name: "Gone", group_id: 3, headers: [{ key: "A", value: "v" }] } });
    expect(operations[0].changes).not.toHaveProperty("id");
    expect(operations[1]).toMatchObject({ operation: "webhooks.delete", recordId: 77 });
    expect(cannot).toHaveLength(1);
  });
});

describe("differsFrom: an edit made in the EMS since the plan read the record", () => {
  it("sees a changed field or header value, and ignores bookkeeping and fields one read left out", () => {
    const before = webhook({ id: 1, url: "https://a.example", headers: [{ key: "K", value: "v" }], updated_at: "2026-11-26 10:00:00" });
    expect(differsFrom(before, { ...before, updated_by: "someone", updated_at: "2026-11-26 10:00:00" })).toBe(false);
    expect(differsFrom(before, { ...before, url: "https://b.example" })).toBe(true);
    expect(differsFrom(before, { ...before, headers: [{ key: "K", value: "other" }] })).toBe(true);
    expect(differsFrom(before, { id: 1, url: "https://a.example" })).toBe(false);
  });

  it("a list that is a set (event ids, fields, emails) differs by its entries only, not their order or repeats", () => {
    const before = webhook({ id: 1, event_ids: [3280, 3282, 3286, 3287, 3282], fields: ["email", "name"] });
    expect(differsFrom(before, { ...before, event_ids: [3287, 3286, 3282, 3280], fields: ["name", "email", "name"] })).toBe(false);
    expect(differsFrom(before, { ...before, event_ids: [3280, 3282, 3286] })).toBe(true);
    const mailed = group({ notification_emails: ["a@x.example", "b@x.example"] });
    expect(differsFrom(mailed, { ...mailed, notification_emails: ["b@x.example", "a@x.example"] })).toBe(false);
    // Headers keep their order: a list sent replaces the whole list, in its order (§8.1).
    const sent = webhook({
      headers: [
        { key: "A", value: "1" },
        { key: "B", value: "2" },
      ],
    });
    expect(differsFrom(sent, { ...sent, headers: [...sent.headers!].reverse() })).toBe(true);
  });
});
