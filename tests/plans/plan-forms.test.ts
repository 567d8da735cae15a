// The plan forms' fields (FormData strings) as the edits lib/plans/edits.ts takes.
import { describe, expect, it } from "vitest";
import { draftBulkSchema as bulkSchema } from "@/lib/actions/plans/draft-bulk.validation";
import { draftGroupBackToSchema as groupBackToSchema } from "@/lib/actions/plans/draft-group-back-to.validation";
import { draftGroupEditSchema as groupEditSchema } from "@/lib/actions/plans/draft-group-edit.validation";
import { headerEditsOf } from "@/lib/actions/plans/plan-fields.validation";
import { draftWebhookEditSchema as webhookEditSchema } from "@/lib/actions/plans/draft-webhook-edit.validation";
import { HEADER_NAME_MESSAGE, HEADER_VALUE_LINE_MESSAGE } from "@/lib/http/header-rules";

const webhookForm = {
  id: "321",
  name: "Orders",
  url: "https://a.example/x",
  trigger_object: "registrant",
  content_type: "json",
  group_id: "5",
  enabled: "on",
  event_ids: "1, 2 2",
  notes: "",
  "header.0.key": "X-Api-Key",
  "header.0.action": "replace",
  "header.0.value": "new-value",
  "header.1.key": "X-Old",
  "header.1.action": "remove",
  "newHeader.0.key": " X-New ",
  "newHeader.0.value": "v",
  "newHeader.1.key": "",
};

describe("the webhook edit form", () => {
  it("reads every field, unchecked boxes as off, and the header rows as edits", () => {
    const parsed = webhookEditSchema.parse(webhookForm);
    expect(parsed.id).toBe(321);
    expect(parsed.values).toMatchObject({ group_id: 5, enabled: true, trigger_on_insert: false, event_ids: [1, 2], notes: null });
    expect(parsed.values.headers).toEqual([
      { key: "X-Api-Key", action: "replace", value: "new-value" },
      { key: "X-Old", action: "remove" },
      { key: "X-New", action: "add", value: "v" },
    ]);
  });

  it("a replace without a value keeps the header; no group is null; every event drops the list", () => {
    const parsed = webhookEditSchema.parse({ ...webhookForm, "header.0.value": "", group_id: "", any_event: "on" });
    expect(parsed.values.headers?.[0]).toEqual({ key: "X-Api-Key", action: "keep" });
    expect(parsed.values.group_id).toBeNull();
    expect(parsed.values.event_ids).toEqual([]);
  });

  it("refuses crafted ids and event lists with a message", () => {
    expect(webhookEditSchema.safeParse({ ...webhookForm, id: "1 OR 1=1" }).success).toBe(false);
    const many = webhookEditSchema.safeParse({ ...webhookForm, event_ids: Array.from({ length: 5_001 }, (_, i) => i + 1).join(",") });
    expect(many.success || many.error.issues[0].message).toBe("At most 5,000 events; to fire for every event, tick “Every event”.");
    const events = webhookEditSchema.safeParse({ ...webhookForm, event_ids: "1, two" });
    expect(events.success || events.error.issues[0].message).toBe("List event ids as whole numbers, separated by commas.");
  });
});

describe("header rows as HTTP has them (RFC 9110)", () => {
  const problems = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    result.success ? [] : result.error!.issues.map((issue) => [issue.path.join("."), issue.message]);

  it("refuses a value with a line break or a control character, in an edit's rows and in a bulk set-header", () => {
    for (const value of ["k-1\r\nX-Injected: yes", "k-1\nX-Injected: yes", "k\u0000-1"]) {
      expect(problems(webhookEditSchema.safeParse({ ...webhookForm, "newHeader.0.value": value }))).toEqual([["newHeader.0.value", HEADER_VALUE_LINE_MESSAGE]]);
      expect(problems(webhookEditSchema.safeParse({ ...webhookForm, "header.0.value": value }))).toEqual([["header.0.value", HEADER_VALUE_LINE_MESSAGE]]);
      expect(problems(bulkSchema.safeParse({ resource: "webhooks", ids: "1", edit: "set-header", key: "X-Key", value }))).toEqual([["value", HEADER_VALUE_LINE_MESSAGE]]);
    }
    // A tab is allowed inside a value, as HTTP allows it.
    expect(webhookEditSchema.safeParse({ ...webhookForm, "newHeader.0.value": "a\tb" }).success).toBe(true);
  });

  it("refuses a name that is not an HTTP token: a colon, a space, a line break", () => {
    for (const key of ["X-A: b", "X A", "X-A\r\nX-B", "Ünicode"]) {
      expect(problems(webhookEditSchema.safeParse({ ...webhookForm, "newHeader.0.key": key }))).toEqual([["newHeader.0.key", HEADER_NAME_MESSAGE]]);
      expect(problems(bulkSchema.safeParse({ resource: "webhooks", ids: "1", edit: "set-header", key, value: "v" }))).toEqual([["key", HEADER_NAME_MESSAGE]]);
    }
  });
});

describe("the bulk form", () => {
  it("builds the edit its fields describe, and says which field is missing", () => {
    expect(bulkSchema.parse({ resource: "webhooks", ids: "3,1,3", edit: "replace-host", from: "old.example.com", to: "new.example.com" })).toMatchObject({
      ids: [3, 1],
      edit: { kind: "replace-host", from: "old.example.com", to: "new.example.com" },
    });
    const missing = bulkSchema.safeParse({ resource: "webhooks", ids: "1", edit: "set-header", key: "X-Key" });
    expect(missing.success || missing.error.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["value", "Give the header a value."]]);
    const wrong = bulkSchema.safeParse({ resource: "webhooks", ids: "1", edit: "add-notification-email", emails: "a@example.com" });
    expect(wrong.success || wrong.error.issues[0].message).toBe("That change is for webhook groups.");
    expect(bulkSchema.safeParse({ resource: "webhooks", ids: "", edit: "use-https" }).success).toBe(false);
  });
});

describe("the group edit form", () => {
  it("splits addresses and reads its header rows", () => {
    expect(
      groupEditSchema.parse({ id: "7", name: "Main", notification_emails: "a@example.com, b@example.com;c@example.com", "header.0.key": "A", "header.0.action": "keep" }),
    ).toEqual({
      id: 7,
      title: undefined,
      values: { name: "Main", notification_emails: ["a@example.com", "b@example.com", "c@example.com"], headers: [{ key: "A", action: "keep" }] },
    });
    expect(headerEditsOf({})).toEqual([]);
  });
});

describe("putting a group back as it was", () => {
  it("takes a group id and an ISO moment; a moment still to come is now; anything else is refused with a message", () => {
    expect(groupBackToSchema.parse({ groupId: "12", at: "2026-11-20T14:02:59.000Z" })).toEqual({ groupId: 12, at: new Date("2026-11-20T14:02:59Z") });
    const later = groupBackToSchema.parse({ groupId: "12", at: "2999-01-01T00:00:00Z" }).at;
    expect(Math.abs(later.getTime() - Date.now())).toBeLessThan(5_000);
    for (const at of ["yesterday", "2026-11-20", "2026-13-40T99:00:00Z", ""]) {
      const result = groupBackToSchema.safeParse({ groupId: "12", at });
      expect(result.success || result.error.issues[0].message).toContain("Choose the moment");
    }
    expect(groupBackToSchema.safeParse({ groupId: "-1", at: "2026-11-20T14:02:59Z" }).success).toBe(false);
  });
});
