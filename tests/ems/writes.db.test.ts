import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import {
  answerCache,
  EmsValidationError,
  encodeWebhookBody,
  flushEmsState,
  forgetCredential,
  getEmsClient,
  getEmsWriter,
  RecordGoneError,
  WriteOutcomeUnknownError,
  type EmsCredential,
} from "@/lib/ems";
import type { StartedSandbox } from "@/lib/sandbox/testing";
import { demoCredential, startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { createTeam } from "../teams/fixtures";
import { ensureEmsTestEnv, withEnv } from "./support/env";

/**
 * The client's writes (docs/ems-api.md §8, lib/ems/writes.ts) against the sandbox over real HTTP,
 * with the real database for tokens and shared answers: the encoding read back as sent, typed
 * refusals, configurable paths, the look before any retry, and the budget.
 */
ensureEmsTestEnv();

let sandbox: StartedSandbox;
let restoreEnv: (() => void) | undefined;
let groupIds: number[];
let eventIds: number[];

const credential = (): EmsCredential => demoCredential(sandbox);
const writer = () => getEmsWriter(credential());
const client = () => getEmsClient(credential());

beforeAll(async () => {
  sandbox = await startAllowedSandbox();
  groupIds = (await client().listWebhookGroups({ fields: ["id"], perPage: 5 })).items.map((group) => group.id);
  eventIds = (await client().listEvents({ fields: ["id"], perPage: 5 })).items.map((event) => event.id);
});
afterAll(async () => {
  await flushEmsState();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.admin.reset();
  await forgetCredential(credential().fingerprint);
});
afterEach(async () => {
  restoreEnv?.();
  restoreEnv = undefined;
  await flushEmsState();
});

const newHook = (name = "CRM sync") => ({ name, url: "https://hooks.example.com/crm", trigger_object: "registrant", group_id: groupIds[0] });
const named = async (name: string) =>
  (await client().listWebhooks({ fields: ["id", "name"], search: [{ field: "name", operator: "=", value: name }] })).items.filter((hook) => hook.name === name);

describe("the form encoding", () => {
  it("brackets lists in order, sends booleans as 1/0, an empty list as the bare name and null as empty", () => {
    expect(
      encodeWebhookBody({
        name: "a b&c",
        group_id: null,
        enabled: false,
        any_event: true,
        event_ids: [15, 12],
        fields: [],
        headers: [{ key: "X-Api-Key", value: "k=1&2" }],
        notes: null,
      }),
    ).toBe(
      "name=a%20b%26c&group_id=&any_event=1&event_ids%5B%5D=15&event_ids%5B%5D=12&enabled=0&fields=&headers%5B0%5D%5Bkey%5D=X-Api-Key&headers%5B0%5D%5Bvalue%5D=k%3D1%262&notes=",
    );
  });

  it("what is sent is what is read back: Unicode, order, every kind of field; empty lists clear", async () => {
    const sent = {
      name: "Café → 東京 🎉",
      url: "https://hooks.example.com/ü?a=1&b=2",
      trigger_object: "session",
      group_id: groupIds[1],
      trigger_on_insert: true,
      trigger_on_update: false,
      trigger_on_delete: true,
      public_user: true,
      admin_user: false,
      api_call: true,
      any_event: false,
      event_ids: [eventIds[3], eventIds[0], eventIds[2]],
      enabled: false,
      content_type: "post",
      all_fields: false,
      use_default_fields: false,
      post_field_data: ["id", "name", "ünï"],
      fields: ["status", "email"],
      custom_fields: [{ key: "event_id", type: "session", value: "event_id" }],
      headers: [
        { key: "X-Zeta", value: "z + =&%" },
        { key: "Authorization", value: "Bearer ñ" },
      ],
      notes: "Ünïcödé\nnotes",
    };
    const created = await writer().createWebhook(sent);
    expect(created.checks).toEqual([]);
    expect(created.record).toMatchObject({ ...sent, created_by: "API (ems_demo_key)", updated_by: "API (ems_demo_key)" });
    const { item } = await client().getOne("webhooks", created.record.id);
    expect(item).toMatchObject(sent);

    const cleared = await writer().updateWebhook(created.record.id, { event_ids: [], headers: [], custom_fields: [], fields: [], notes: null, group_id: null });
    expect(cleared.record).toMatchObject({ event_ids: [], headers: [], custom_fields: [], fields: [], notes: null, group_id: null, name: sent.name });
    expect((await client().getOne("webhooks", created.record.id)).item).toMatchObject({
      event_ids: [],
      headers: [],
      group_id: null,
      post_field_data: sent.post_field_data,
    });
  });

  it("groups: create, update and delete; updated_by names the API user", async () => {
    const made = await writer().createWebhookGroup({
      name: "Ops — 日本",
      notification_emails: ["b@example.com", "a@example.com"],
      headers: [{ key: "X-K", value: "v" }],
    });
    expect(made.record).toMatchObject({ name: "Ops — 日本", notification_emails: ["b@example.com", "a@example.com"], updated_by: "API (ems_demo_key)" });
    const changed = await writer().updateWebhookGroup(made.record.id, { notification_emails: [] });
    expect(changed.record.notification_emails).toEqual([]);
    expect((await writer().deleteWebhookGroup(made.record.id)).record).toBeNull();
    expect((await client().getOne("webhook-groups", made.record.id)).item).toBeNull();
  });
});

describe("refusals", () => {
  it("a 422 is an EmsValidationError carrying each field's message, and changes nothing", async () => {
    const count = async () => (await client().listWebhooks({ fields: ["id"], perPage: 1 })).meta.totalCount;
    const before = await count();
    const error = await writer()
      .createWebhook({ name: "", url: "ftp://x.example", trigger_object: "registrant", event_ids: [999_999_999] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EmsValidationError);
    const { fieldErrors, userMessage, code, status } = error as EmsValidationError;
    expect({ code, status }).toEqual({ code: "ems_validation", status: 422 });
    expect(fieldErrors.map((entry) => entry.field).sort()).toEqual(["event_ids", "name", "url"]);
    expect(fieldErrors.find((entry) => entry.field === "name")?.message).toBe("Name cannot be blank.");
    expect(userMessage).toMatch(/^The EMS refused the change: /);
    expect(await count()).toBe(before);
  });

  it("a create path that 404s, or a delete path that 405s, is 'not offered', tried once", async () => {
    restoreEnv = withEnv({ EMS_WRITE_PATHS: "webhooks.create=/api/v1/hooks/create, webhooks.delete=/api/v1/events/{id}" });
    await expect(writer().createWebhook(newHook())).rejects.toMatchObject({ name: "WriteNotOfferedError", status: 404, code: "ems_write_not_offered" });
    const before = (await sandbox.admin.stats()).apiRequests;
    await expect(writer().deleteWebhook(groupIds[0] * 10 + 1)).rejects.toMatchObject({ name: "WriteNotOfferedError", status: 405 });
    expect((await sandbox.admin.stats()).apiRequests - before).toBe(1);
  });

  it("a 404 on update: the record still there means the path is not offered; gone, RecordGoneError", async () => {
    const [hook] = (await client().listWebhooks({ fields: ["id"], perPage: 1 })).items;
    restoreEnv = withEnv({ EMS_WRITE_PATHS: "webhooks.update=/api/v1/webhooks/{id}/edit" });
    await expect(writer().updateWebhook(hook.id, { enabled: false })).rejects.toMatchObject({ name: "WriteNotOfferedError", status: 404 });
    restoreEnv();
    restoreEnv = undefined;
    await writer().deleteWebhook(hook.id);
    await expect(writer().updateWebhook(hook.id, { enabled: false })).rejects.toBeInstanceOf(RecordGoneError);
  });
});

describe("never retried blindly", () => {
  it("a create whose answer is lost (503 after the write) is found, not made twice", async () => {
    await sandbox.admin.injectFaults({ count: 1, status: 503, paths: "write", afterWrite: true });
    const result = await writer().createWebhook(newHook("Lost answer"));
    expect(result.checks).toEqual([{ attempt: 1, failure: "status 503", found: "applied" }]);
    expect(result.record).toMatchObject({ name: "Lost answer", group_id: groupIds[0] });
    expect((await named("Lost answer")).map((hook) => hook.id)).toEqual([result.record.id]);
  });

  it("a create refused with a 500 before it was made is looked for, then made once", async () => {
    await sandbox.admin.injectFaults({ count: 1, status: 500, paths: "write" });
    const result = await writer().createWebhook(newHook("Refused first"));
    expect(result.checks).toEqual([{ attempt: 1, failure: "status 500", found: "not-applied" }]);
    expect((await named("Refused first")).map((hook) => hook.id)).toEqual([result.record.id]);
  });

  it("an update that times out is read before anything else; made, it is not sent again", async () => {
    const [hook] = (await client().listWebhooks({ fields: ["id"], perPage: 1 })).items;
    await sandbox.admin.injectFaults({ count: 1, delayMs: 1_500, paths: "write", afterWrite: true });
    const before = (await sandbox.admin.stats()).apiRequests;
    const result = await writer().updateWebhook(hook.id, { url: "https://after-timeout.example.com/x" }, { timeoutMs: 300 });
    expect(result.checks).toEqual([{ attempt: 1, failure: "ems_timeout", found: "applied" }]);
    expect(result.record.url).toBe("https://after-timeout.example.com/x");
    // The write, then one read: no second write.
    expect((await sandbox.admin.stats()).apiRequests - before).toBe(2);
  });

  it("when the look fails too, it stops without trying again", async () => {
    const [hook] = (await client().listWebhooks({ fields: ["id"], perPage: 1 })).items;
    await sandbox.admin.injectFaults({ count: 4, status: 503, paths: "api" });
    const before = (await sandbox.admin.stats()).apiRequests;
    await expect(writer().updateWebhook(hook.id, { enabled: false })).rejects.toBeInstanceOf(WriteOutcomeUnknownError);
    // One write, and the read with its own two retries: never a second write.
    expect((await sandbox.admin.stats()).apiRequests - before).toBe(4);
  });
});

describe("budget and caches", () => {
  it("a write costs one credit", async () => {
    const [hook] = (await client().listWebhooks({ fields: ["id"], perPage: 1 })).items;
    const read = await client().getOne("webhooks", hook.id, { fields: ["id"] });
    const written = await writer().updateWebhook(hook.id, { notes: "one credit" });
    expect(read.rateLimit!.remaining - written.rateLimit!.remaining).toBe(1);
  });

  it("waits for the window rather than dip into the page views' reserve", async () => {
    await sandbox.admin.setRateLimit({ credits: 20, windowSeconds: 2 });
    const [hook] = (await client().listWebhooks({ fields: ["id"], perPage: 1 })).items; // 10 credits: 10 left, the reserve is 6
    for (let i = 0; i < 4; i++) await client().getOne("webhooks", hook.id, { fields: ["id"] }); // 6 left
    const started = Date.now();
    const written = await writer().updateWebhook(hook.id, { notes: "after the reset" });
    expect(Date.now() - started).toBeGreaterThan(1_000);
    expect(written.rateLimit!.remaining).toBe(19);
  });

  it("drops the stored answers of the credential in every team, so the next read asks the EMS", async () => {
    const { teamId } = await createTeam();
    const [group] = (await client().listWebhookGroups({ fields: ["id"], perPage: 1 })).items;
    const first = await answerCache.record(client(), "webhook-groups", group.id, {}, { teamId, windowMs: 60_000 });
    expect((await answerCache.record(client(), "webhook-groups", group.id, {}, { teamId, windowMs: 60_000 })).source).toBe("shared");
    await writer().updateWebhookGroup(group.id, { name: "Renamed through the API" });
    expect(await prisma.emsSharedAnswer.count({ where: { fingerprint: credential().fingerprint } })).toBe(0);
    const after = await answerCache.record(client(), "webhook-groups", group.id, {}, { teamId, windowMs: 60_000 });
    expect(after).toMatchObject({ source: "api", item: { name: "Renamed through the API" } });
    expect(first.item?.name).not.toBe("Renamed through the API");
  });
});
