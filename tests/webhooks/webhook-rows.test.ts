import { describe, expect, it } from "vitest";
import type { Webhook } from "@/lib/ems";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { tableData, type WebhookRowContext } from "@/lib/listing/table-rows";
import { toEmsQuery } from "@/lib/listing/query";
import { findingsByWebhook } from "@/lib/listing-page/webhook-context";
import { coverageOf } from "@/lib/webhooks/page";
import { webhookEventCount, webhookFiring, webhookHost } from "@/lib/setup/webhook-status";

const hook = (fields: Partial<Webhook> = {}): Webhook => ({
  id: 7,
  name: "Registrants to CRM",
  url: "https://user:pass@hooks.example.com:8443/t/SECRET-TOKEN?x=1",
  group_id: 3,
  trigger_object: "registrant",
  trigger_on_insert: true,
  trigger_on_update: true,
  trigger_on_delete: false,
  public_user: true,
  admin_user: true,
  api_call: false,
  any_event: false,
  event_ids: [1, 2],
  enabled: true,
  updated_at: "2026-11-20 14:02:11",
  updated_by: "ana@example.com",
  ...fields,
});

describe("a webhook's host", () => {
  it("is the host and port only: no credentials, path, query or token", () => {
    expect(webhookHost(hook().url)).toBe("hooks.example.com:8443");
    expect(webhookHost("https://Hooks.Example.com/path")).toBe("hooks.example.com");
    expect(webhookHost("http://[::1]:9000/x")).toBe("[::1]:9000");
    expect(webhookHost("not a url")).toBe("");
    expect(webhookHost(undefined)).toBe("");
  });
});

describe("whether a webhook fires", () => {
  it("is enabled when it is on and its settings leave something to fire for", () => {
    expect(webhookFiring(hook())).toEqual({ state: "enabled" });
  });
  it("is disabled first, whatever else", () => {
    expect(webhookFiring(hook({ enabled: false, event_ids: [] }))).toEqual({ state: "disabled" });
  });
  it("never fires for no event, no action or no actor, never a green Enabled", () => {
    expect(webhookFiring(hook({ event_ids: [] }))).toEqual({ state: "never-fires", reasons: ["no-events"] });
    expect(webhookFiring(hook({ trigger_on_insert: false, trigger_on_update: false }))).toEqual({ state: "never-fires", reasons: ["no-actions"] });
    expect(webhookFiring(hook({ public_user: false, admin_user: false }))).toEqual({ state: "never-fires", reasons: ["no-actors"] });
  });
  it("does not guess from missing fields: unknown, not never", () => {
    expect(webhookFiring({ id: 1 })).toEqual({ state: "unknown" });
    expect(webhookFiring({ id: 1, enabled: true, any_event: undefined, event_ids: [] })).toEqual({ state: "enabled" });
    expect(webhookFiring(hook({ any_event: true, event_ids: [] }))).toEqual({ state: "enabled" });
  });
  it("counts its events, or all of them", () => {
    expect(webhookEventCount(hook())).toBe(2);
    expect(webhookEventCount(hook({ any_event: true }))).toBe("all");
    expect(webhookEventCount({ id: 1 })).toBeNull();
  });
});

describe("the webhooks list's rows", () => {
  const state = parseListingSearchParams("webhooks", {});
  const context: WebhookRowContext = {
    groupNames: new Map([[3, "CRM sync"]]),
    findings: new Map([[7, { errors: 0, warnings: 2, notices: 1 }]]),
  };

  it("asks the API for what its cells show", () => {
    const fields = toEmsQuery(state).fields!;
    for (const field of ["id", "name", "group_id", "trigger_object", "trigger_on_delete", "url", "enabled", "any_event", "event_ids", "updated_by"]) {
      expect(fields).toContain(field);
    }
  });

  it("are one dense row: linked name, group by name, trigger marks, host, status with findings, events, last change", () => {
    const data = tableData(state, [hook() as unknown as Record<string, unknown>], undefined, context);
    expect(data.columns.map((column) => [column.field, column.kind])).toEqual([
      ["name", "link"],
      ["group_id", "group"],
      ["trigger_object", "trigger"],
      ["url", "host"],
      ["enabled", "firing"],
      ["event_ids", "count"],
      ["updated_at", "stamp"],
    ]);
    expect(data.rows[0]).toEqual({
      id: "7",
      cells: [
        "Registrants to CRM",
        ["3", "CRM sync"],
        ["registrant", "iu"],
        "hooks.example.com:8443",
        ["enabled", "warning", "2 warnings", ""],
        "2 events",
        ["2026-11-20 14:02 UTC", "ana@example.com"],
      ],
    });
    // The URL's path (a token, for chat services) is in no cell.
    expect(JSON.stringify(data)).not.toContain("SECRET-TOKEN");
  });

  it("say never fires and why, and fall back to the group's id when the setup is unknown", () => {
    const data = tableData(state, [hook({ event_ids: [] }) as unknown as Record<string, unknown>], undefined, { groupNames: null, findings: null });
    expect(data.rows[0].cells[1]).toEqual(["3", "Group 3"]);
    expect(data.rows[0].cells[4]).toEqual(["never-fires", "", "", "it is set up for no event"]);
    expect(data.rows[0].cells[5]).toBe("No events");
  });
});

describe("a webhook's findings and coverage", () => {
  it("counts each finding once per webhook it names", () => {
    const counts = findingsByWebhook([
      {
        severity: "error",
        subjects: [
          { kind: "webhook", id: 7 },
          { kind: "webhook", id: 7 },
          { kind: "group", id: 3 },
        ],
      },
      {
        severity: "warning",
        subjects: [
          { kind: "webhook", id: 7 },
          { kind: "webhook", id: 8 },
        ],
      },
      { severity: "notice", subjects: [{ kind: "event", id: 7 }] },
    ]);
    expect(Object.fromEntries(counts)).toEqual({ 7: { errors: 1, warnings: 1, notices: 0 }, 8: { errors: 0, warnings: 1, notices: 0 } });
  });

  it("fills its object's switched-on actions for each of its events; a disabled one fills none", () => {
    const events = [
      { id: 1, name: "Summit", status: "live", end_date: "2099-01-01" },
      { id: 2, name: "Gala", status: "closed" },
      { id: 9, name: "Other" },
    ];
    const now = new Date("2026-11-26T12:00:00Z");
    const covered = coverageOf(hook({ event_ids: [1, 2, 404] }), events, now);
    expect(covered.events.map((event) => [event.id, event.live, event.cells])).toEqual([
      [1, true, ["registrant:insert", "registrant:update"]],
      [2, false, ["registrant:insert", "registrant:update"]],
    ]);
    expect(covered.unknownEventIds).toEqual([404]);
    expect(covered.liveEventCount).toBe(1);
    expect(coverageOf(hook({ any_event: true }), events, now).events).toHaveLength(3);
    expect(coverageOf(hook({ enabled: false }), events, now).events[0].cells).toEqual([]);
  });
});
