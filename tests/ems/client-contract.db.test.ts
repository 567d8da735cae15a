import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmsBadRequestError, flushEmsState, forgetCredential, getEmsClient, InvalidQueryError } from "@/lib/ems";
import { OTHER_CREDENTIALS } from "@/lib/sandbox/testing";
import { sandboxCredential, sandboxForFile } from "@/tests/ems/support/sandbox";
import { ensureEmsTestEnv } from "./support/env";

/**
 * The client's additions of issue 13 against the sandbox over real HTTP, with the real database
 * for the token cache: the webhooks listing with every production field, `*in*`, and single-record
 * reads through the same token lifecycle and rate-limit accounting as listings.
 */

ensureEmsTestEnv();

const sandbox = sandboxForFile();
const credential = (key?: string, secret?: string) => sandboxCredential(sandbox, key, secret);

beforeEach(async () => {
  await sandbox.admin.reset();
  for (const each of [credential(), credential(OTHER_CREDENTIALS.consumerKey, OTHER_CREDENTIALS.consumerSecret)]) await forgetCredential(each.fingerprint);
});

afterEach(() => flushEmsState());

describe("listWebhooks", () => {
  it("parses every production field of a webhook", async () => {
    const client = getEmsClient(credential());
    const page = await client.listWebhooks({ perPage: 200 });
    expect(page.meta.totalCount).toBeGreaterThan(200);
    const hook = page.items.find((item) => !item.any_event && item.notes !== null)!;
    expect(hook).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      url: expect.stringMatching(/^https?:\/\//),
      group_id: expect.any(Number),
      trigger_object: expect.any(String),
      trigger_on_insert: expect.any(Boolean),
      trigger_on_update: expect.any(Boolean),
      trigger_on_delete: expect.any(Boolean),
      public_user: expect.any(Boolean),
      admin_user: expect.any(Boolean),
      api_call: expect.any(Boolean),
      any_event: false,
      event_ids: expect.arrayContaining([expect.any(Number)]),
      enabled: expect.any(Boolean),
      content_type: expect.stringMatching(/^(json|post)$/),
      all_fields: expect.any(Boolean),
      use_default_fields: expect.any(Boolean),
      post_field_data: expect.any(Array),
      fields: expect.any(Array),
      custom_fields: expect.any(Array),
      headers: expect.any(Array),
      notes: expect.any(String),
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      created_by: expect.toBeOneOf([expect.any(String), null]),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_by: expect.toBeOneOf([expect.any(String), null]),
    });
  });

  it("leaves the fields it did not ask for unknown, and searches with *in*", async () => {
    const client = getEmsClient(credential());
    const groups = await client.listWebhookGroups({ fields: ["id"], perPage: 3 });
    const groupIds = groups.items.map((group) => group.id);
    const page = await client.listWebhooks({
      fields: ["id", "group_id", "enabled"],
      search: [
        { field: "group_id", operator: "=*in*", value: groupIds.join("|") },
        { field: "enabled", operator: "=", value: "1" },
      ],
      sort: [{ field: "id", direction: "desc" }],
      perPage: 200,
    });
    expect(page.items.length).toBeGreaterThan(0);
    for (const hook of page.items) {
      expect(Object.keys(hook)).toEqual(["id", "group_id", "enabled"]);
      expect(groupIds).toContain(hook.group_id);
      expect(hook.enabled).toBe(true);
      expect(hook.trigger_object).toBeUndefined();
    }
    expect(page.items.map((hook) => hook.id)).toEqual([...page.items.map((hook) => hook.id)].sort((a, b) => b - a));
  });

  it("walks every page with pages()", async () => {
    const client = getEmsClient(credential());
    let count = 0;
    let total = 0;
    for await (const page of client.pages("webhooks", { fields: ["id"], perPage: 200 })) {
      count += page.items.length;
      total = page.meta.totalCount;
    }
    expect(count).toBe(total);
  });
});

describe("getOne", () => {
  it("reads one record of each resource, shaped by fields and expand, for 1 credit each", async () => {
    const client = getEmsClient(credential());
    const listed = await client.listWebhookGroups({ expand: ["webhooks"], perPage: 20 });
    const group = listed.items.find((item) => (item.webhooks?.length ?? 0) > 0)!;
    const before = listed.rateLimit!.remaining;

    const one = await client.getOne("webhook-groups", group.id, { expand: ["webhooks"] });
    expect(one.item).toEqual(group);
    expect(one.rateLimit!.remaining).toBe(before - 1);

    const hook = await client.getOne("webhooks", group.webhooks![0].id, { fields: ["id", "url", "event_ids"] });
    expect(hook.item).toEqual({ id: group.webhooks![0].id, url: group.webhooks![0].url, event_ids: group.webhooks![0].event_ids });
    expect(hook.rateLimit!.remaining).toBe(before - 2);

    const event = await client.getOne("events", group.webhooks!.find((each) => each.event_ids?.length)!.event_ids![0], { fields: ["id", "name", "status"] });
    expect(Object.keys(event.item!)).toEqual(["id", "name", "status"]);
    expect(event.rateLimit!.remaining).toBe(before - 3);
    expect(await sandbox.admin.stats()).toMatchObject({ tokenRequests: 1, apiRequests: 4 });
  });

  it("answers null for a record that is missing or belongs to another account", async () => {
    const other = getEmsClient(credential(OTHER_CREDENTIALS.consumerKey, OTHER_CREDENTIALS.consumerSecret));
    const demo = getEmsClient(credential());
    const demoIds = new Set((await demo.listWebhookGroups({ fields: ["id"], perPage: 200 })).items.map((group) => group.id));
    const otherGroup = (await other.listWebhookGroups({ fields: ["id"], perPage: 200 })).items.find((group) => !demoIds.has(group.id))!;
    expect((await other.getOne("webhook-groups", otherGroup.id)).item).toMatchObject({ id: otherGroup.id });
    expect((await demo.getOne("webhook-groups", otherGroup.id)).item).toBeNull();
    expect((await demo.getOne("events", 999_999)).item).toBeNull();
  });

  it("goes through the token lifecycle: a revoked token is renewed once and the read retried", async () => {
    const client = getEmsClient(credential());
    const { items } = await client.listEvents({ fields: ["id"], perPage: 1 });
    await sandbox.admin.revokeAllTokens();
    const one = await client.getOne("events", items[0].id);
    expect(one.item).toMatchObject({ id: items[0].id, name: expect.any(String) });
    expect(await sandbox.admin.stats()).toMatchObject({ tokenRequests: 2, apiRequests: 3 });
  });

  it("refuses a bad id or fields before calling, and reports the API's 400 as a bad request", async () => {
    const client = getEmsClient(credential());
    for (const id of [0, -1, 1.5, Number.NaN]) await expect(client.getOne("events", id)).rejects.toBeInstanceOf(InvalidQueryError);
    await expect(client.getOne("events", 1, { fields: ["venue" as never] })).rejects.toBeInstanceOf(InvalidQueryError);
    expect(await sandbox.admin.stats()).toMatchObject({ tokenRequests: 0, apiRequests: 0 });
    await sandbox.admin.injectFaults({ count: 1, status: 422, paths: "api" });
    await expect(client.getOne("events", 1)).rejects.toBeInstanceOf(EmsBadRequestError);
  });
});
