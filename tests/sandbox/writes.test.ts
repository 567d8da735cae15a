import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhookGroupSchema, webhookSchema, type Webhook, type WebhookGroup } from "@/lib/sandbox/api/resources";
import { OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { DEMO_CREDENTIALS, expectError, FORM, listAll, listOk, startSandboxServer, tokenFor, type StartedSandbox } from "./helpers";

/**
 * Writes (docs/ems-api.md §8) over real HTTP: every validation rule of §8.1 and §8.2, the answers,
 * who and when, credits, caches and tenant isolation. Black-box: each check reads back through the
 * listings and single-record reads a client would use.
 */
let sandbox: StartedSandbox;
let token: string;
let otherToken: string;
let groups: WebhookGroup[];
let events: number[];

beforeAll(async () => {
  sandbox = await startSandboxServer();
  token = await tokenFor(sandbox.baseUrl);
  otherToken = await tokenFor(sandbox.baseUrl, OTHER_CREDENTIALS);
  groups = (await listOk<WebhookGroup>(sandbox.baseUrl, token, "webhook-groups", "per-page=5")).items;
  events = (await listOk<{ id: number }>(sandbox.baseUrl, token, "events", "per-page=5")).items.map((event) => event.id);
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.admin.reset();
  await sandbox.admin.setRateLimit({ credits: 1_000_000 });
});

type Method = "POST" | "PUT" | "DELETE";
const send = (method: Method, path: string, body?: string, init: { as?: string; contentType?: string | null } = {}) =>
  fetch(`${sandbox.baseUrl}/api/v1/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${init.as ?? token}`,
      ...(init.contentType === null || body === undefined ? {} : { "content-type": init.contentType ?? FORM }),
    },
    body,
  });
const form = (pairs: [string, string][]) => pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join("&");
const read = async <T>(path: string, as = token) => {
  const response = await fetch(`${sandbox.baseUrl}/api/v1/${path}`, { headers: { authorization: `Bearer ${as}` } });
  return { status: response.status, body: response.status === 200 ? ((await response.json()) as T) : null };
};
const fieldErrors = async (response: Response) => {
  expect(response.status).toBe(422);
  return (await response.json()) as { field: string; message: string }[];
};
/** A group of the other account (made there: generated group ids of two accounts may coincide). */
const theirGroup = async () => ((await (await send("POST", "webhook-groups/create", "name=Theirs", { as: otherToken })).json()) as { id: number }).id;
const minimal = (extra: [string, string][] = []): string =>
  form([["name", "CRM sync"], ["url", "https://hooks.example.com/in"], ["trigger_object", "registrant"], ...extra]);

describe("creating a webhook", () => {
  it("answers 201 with every field, the defaults of §8.1 and who made it, and the listings show it", async () => {
    const response = await send("POST", "webhooks/create", minimal());
    expect(response.status).toBe(201);
    const created = webhookSchema.strict().parse(await response.json());
    expect(created).toMatchObject({
      name: "CRM sync",
      url: "https://hooks.example.com/in",
      group_id: null,
      trigger_object: "registrant",
      trigger_on_insert: false,
      any_event: false,
      enabled: true,
      use_default_fields: true,
      all_fields: false,
      content_type: "json",
      event_ids: [],
      fields: [],
      post_field_data: [],
      custom_fields: [],
      headers: [],
      notes: null,
      created_by: "API (ems_demo_key)",
      updated_by: "API (ems_demo_key)",
    });
    expect(created.created_at).toBe(created.updated_at);
    expect(Math.abs(Date.parse(`${created.updated_at.replace(" ", "T")}Z`) - Date.now())).toBeLessThan(5_000);
    expect((await read<Webhook>(`webhooks/${created.id}`)).body).toEqual(created);
    const listed = await listOk<{ id: number }>(sandbox.baseUrl, token, "webhooks", `search=${encodeURIComponent(`id=${created.id}`)}`);
    expect(listed.items.map((item) => item.id)).toEqual([created.id]);
  });

  it("keeps lists in the order sent, Unicode as sent, and takes webhook_group_id as group_id", async () => {
    const group = groups[1].id;
    const body = form([
      ["name", "Café → 東京 🎉"],
      ["url", "https://hooks.example.com/ü"],
      ["trigger_object", "session"],
      ["webhook_group_id", String(group)],
      ["event_ids[]", String(events[2])],
      ["event_ids[]", String(events[0])],
      ["headers[0][key]", "X-Zeta"],
      ["headers[0][value]", "z=1&2"],
      ["headers[1][key]", "Authorization"],
      ["headers[1][value]", "Bearer ñ+/="],
      ["fields[]", "status"],
      ["fields[]", "email"],
      ["post_field_data[]", "id"],
      ["custom_fields[0][key]", "event_id"],
      ["custom_fields[0][type]", "session"],
      ["custom_fields[0][value]", "event_id"],
      ["enabled", "0"],
      ["any_event", "true"],
      ["notes", "Ünïcödé notes"],
    ]);
    const created = (await (await send("POST", "webhooks/create", body)).json()) as Webhook;
    expect(created).toMatchObject({
      name: "Café → 東京 🎉",
      url: "https://hooks.example.com/ü",
      group_id: group,
      event_ids: [events[2], events[0]],
      headers: [
        { key: "X-Zeta", value: "z=1&2" },
        { key: "Authorization", value: "Bearer ñ+/=" },
      ],
      fields: ["status", "email"],
      post_field_data: ["id"],
      custom_fields: [{ key: "event_id", type: "session", value: "event_id" }],
      enabled: false,
      any_event: true,
      notes: "Ünïcödé notes",
    });
    const inGroup = (await read<{ webhooks: Webhook[] }>(`webhook-groups/${group}?expand=webhooks`)).body!;
    expect(inGroup.webhooks.at(-1)).toEqual(created);
  });

  it("counts lengths in code points: 255 emoji are a valid name, 256 are not", async () => {
    expect(
      (
        await send(
          "POST",
          "webhooks/create",
          form([
            ["name", "🎉".repeat(255)],
            ["url", "https://a.example"],
            ["trigger_object", "event"],
          ]),
        )
      ).status,
    ).toBe(201);
    const errors = await fieldErrors(
      await send(
        "POST",
        "webhooks/create",
        form([
          ["name", "🎉".repeat(256)],
          ["url", "https://a.example"],
          ["trigger_object", "event"],
        ]),
      ),
    );
    expect(errors).toEqual([{ field: "name", message: "Name should contain at most 255 characters." }]);
  });

  it("a 422 names every failing field, lists by their base name, and changes nothing", async () => {
    const before = await listOk(sandbox.baseUrl, token, "webhooks", "per-page=1");
    const body = form([
      ["url", "ftp://files.example.com"],
      ["trigger_object", "attendee"],
      ["content_type", "xml"],
      ["enabled", "yes"],
      ["event_ids[]", "999999999"],
      ["headers[0][key]", "X-A"],
      ["headers[0][value]", "1"],
      ["headers[1][key]", "x-a"],
      ["headers[1][value]", "2"],
      ["fields[]", ""],
      ["post_field_data[]", "x".repeat(65)],
      ["custom_fields[0][key]", "k"],
      ["custom_fields[0][type]", ""],
      ["custom_fields[0][value]", "v"],
      ["colour", "blue"],
    ]);
    const errors = await fieldErrors(await send("POST", "webhooks/create", body));
    expect(errors.map((error) => error.field).sort()).toEqual(
      ["colour", "content_type", "custom_fields", "enabled", "event_ids", "fields", "headers", "name", "post_field_data", "trigger_object", "url"].sort(),
    );
    for (const error of errors) expect(error.message.length).toBeGreaterThan(5);
    expect(errors.find((error) => error.field === "colour")!.message).toBe('Unknown field "colour".');
    expect(errors.find((error) => error.field === "headers")!.message).toMatch(/twice/);
    expect((await listOk(sandbox.baseUrl, token, "webhooks", "per-page=1"))._meta.totalCount).toBe(before._meta.totalCount);
  });

  it("header keys: not blank, at most 255 characters, no control characters, an HTTP token; values one line", async () => {
    for (const [key, value, message] of [
      ["", "v", /blank/],
      ["K".repeat(256), "v", /255/],
      ["X-\u0001", "v", /control/],
      ["X-A: b", "v", /not a valid HTTP header name/],
      ["X-Api-Key", "k-1\r\nX-Injected: yes", /line breaks/],
      ["X-Api-Key", "k\u00001", /line breaks or control characters/],
    ] as const) {
      const errors = await fieldErrors(
        await send(
          "POST",
          "webhooks/create",
          minimal([
            ["headers[0][key]", key],
            ["headers[0][value]", value],
          ]),
        ),
      );
      expect(errors).toEqual([{ field: "headers", message: expect.stringMatching(message) }]);
    }
    // An entry without its value, or with a property of its own, is refused too.
    expect(await fieldErrors(await send("POST", "webhooks/create", minimal([["headers[0][key]", "X-A"]])))).toEqual([{ field: "headers", message: expect.any(String) }]);
  });

  it("group_id and webhook_group_id naming different groups is a 422; another account's group is a 422", async () => {
    const errors = await fieldErrors(
      await send(
        "POST",
        "webhooks/create",
        minimal([
          ["group_id", String(groups[0].id)],
          ["webhook_group_id", String(groups[1].id)],
        ]),
      ),
    );
    expect(errors.map((error) => error.field)).toEqual(["webhook_group_id"]);
    const otherGroup = await theirGroup();
    expect((await read(`webhook-groups/${otherGroup}`)).status).toBe(404);
    expect((await fieldErrors(await send("POST", "webhooks/create", minimal([["group_id", String(otherGroup)]])))).map((error) => error.field)).toEqual(["group_id"]);
  });

  it("a body that is not form-encoded is a 415; a list sent as a plain value is a 422", async () => {
    await expectError(await send("POST", "webhooks/create", JSON.stringify({ name: "x" }), { contentType: "application/json" }), 415, /form-urlencoded/);
    await expectError(await send("POST", "webhooks/create", "name=x", { contentType: null }), 415, /form-urlencoded/);
    expect(await fieldErrors(await send("POST", "webhooks/create", minimal([["event_ids", String(events[0])]])))).toEqual([
      { field: "event_ids", message: expect.stringMatching(/list/) },
    ]);
  });
});

describe("updating and deleting a webhook", () => {
  const firstWebhook = async () => (await listOk<Webhook>(sandbox.baseUrl, token, "webhooks", "per-page=1")).items[0];

  it("changes only the fields sent, replaces whole lists, clears a list sent bare, and stamps who and when", async () => {
    const before = await firstWebhook();
    const response = await send(
      "PUT",
      `webhooks/update/${before.id}`,
      form([
        ["url", "https://new.example.com/x"],
        ["event_ids[]", String(events[3])],
        ["headers", ""],
      ]),
    );
    expect(response.status).toBe(200);
    const after = (await response.json()) as Webhook;
    expect(after).toEqual({
      ...before,
      url: "https://new.example.com/x",
      event_ids: [events[3]],
      headers: [],
      updated_at: expect.any(String),
      updated_by: "API (ems_demo_key)",
    });
    expect(after.updated_at >= before.updated_at).toBe(true);
    expect((await read<Webhook>(`webhooks/${before.id}`)).body).toEqual(after);
    // The listing's search answers from the new data, though it was asked (and cached) before.
    const found = await listOk<{ id: number }>(sandbox.baseUrl, token, "webhooks", `search=${encodeURIComponent("url=*contains*new.example.com")}`);
    expect(found.items.map((item) => item.id)).toEqual([before.id]);
  });

  it("moves a webhook to another group, and out of every group with an empty group_id", async () => {
    const before = await firstWebhook();
    const target = groups[3].id;
    await send("PUT", `webhooks/update/${before.id}`, form([["group_id", String(target)]]));
    const group = (await read<{ webhooks: Webhook[] }>(`webhook-groups/${target}?expand=webhooks`)).body!;
    expect(group.webhooks.map((webhook) => webhook.id)).toContain(before.id);
    const old = (await read<{ webhooks: Webhook[] }>(`webhook-groups/${before.group_id}?expand=webhooks`)).body!;
    expect(old.webhooks.map((webhook) => webhook.id)).not.toContain(before.id);
    const none = (await (await send("PUT", `webhooks/update/${before.id}`, form([["group_id", ""]]))).json()) as Webhook;
    expect(none.group_id).toBeNull();
    expect((await read<Webhook>(`webhooks/${before.id}`)).body!.group_id).toBeNull();
  });

  it("404 for an unknown id or another account's; 400 for an id that is not a positive integer; 405 for the wrong method", async () => {
    const theirs = (await listOk<{ id: number }>(sandbox.baseUrl, otherToken, "webhooks", "per-page=1")).items[0].id;
    await expectError(await send("PUT", `webhooks/update/${theirs}`, form([["name", "mine now"]])), 404, /No webhook/);
    await expectError(await send("DELETE", `webhooks/${theirs}`), 404, /No webhook/);
    expect((await read<Webhook>(`webhooks/${theirs}`, otherToken)).body!.name).not.toBe("mine now");
    await expectError(await send("PUT", "webhooks/update/999999999", form([["name", "x"]])), 404, /No webhook/);
    for (const id of ["0", "-1", "abc", "1.5"]) await expectError(await send("PUT", `webhooks/update/${id}`, form([["name", "x"]])), 400, /positive integers/);
    await expectError(await send("DELETE", "webhooks/abc"), 400, /positive integers/);
    expect((await send("PUT", "webhooks/create", minimal())).status).toBe(405);
    expect((await send("POST", `webhooks/update/${theirs}`, minimal())).status).toBe(405);
    expect((await send("DELETE", `events/${events[0]}`)).status).toBe(405);
  });

  it("deletes: 204, then the record is a 404 and the listings no longer hold it", async () => {
    const before = await firstWebhook();
    const response = await send("DELETE", `webhooks/${before.id}`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await read(`webhooks/${before.id}`)).status).toBe(404);
    expect((await listOk<Webhook>(sandbox.baseUrl, token, "webhooks", "per-page=1")).items[0].id).not.toBe(before.id);
    await expectError(await send("DELETE", `webhooks/${before.id}`), 404, /No webhook/);
  });
});

describe("webhook groups", () => {
  it("create, update and delete, with updated_at/updated_by, and the id never given twice", async () => {
    const created = await send(
      "POST",
      "webhook-groups/create",
      form([
        ["name", "Ops — 日本"],
        ["notification_emails[]", "ops@example.com"],
        ["headers[0][key]", "X-K"],
        ["headers[0][value]", "v"],
      ]),
    );
    expect(created.status).toBe(201);
    const group = webhookGroupSchema.strict().parse(await created.json());
    expect(group).toMatchObject({
      name: "Ops — 日本",
      notification_emails: ["ops@example.com"],
      headers: [{ key: "X-K", value: "v" }],
      updated_by: "API (ems_demo_key)",
    });
    expect((await read<WebhookGroup>(`webhook-groups/${group.id}`)).body).toEqual(group);

    const updated = (await (await send("PUT", `webhook-groups/update/${group.id}`, form([["notification_emails", ""]]))).json()) as WebhookGroup;
    expect(updated).toEqual({ ...group, notification_emails: [], updated_at: expect.any(String) });

    expect((await send("DELETE", `webhook-groups/${group.id}`)).status).toBe(204);
    expect((await read(`webhook-groups/${group.id}`)).status).toBe(404);
    const again = (await (await send("POST", "webhook-groups/create", form([["name", "Next"]]))).json()) as WebhookGroup;
    expect(again.id).toBeGreaterThan(group.id);
  });

  it("a group never changed carries a creation time and null", async () => {
    for (const group of groups) {
      expect(group.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(group.updated_by).toBeNull();
    }
  });

  it("validation: name required and at most 255 code points, valid addresses, at most 50, unknown fields", async () => {
    expect(await fieldErrors(await send("POST", "webhook-groups/create", form([["notification_emails[]", "ops@example.com"]])))).toEqual([
      { field: "name", message: "Name cannot be blank." },
    ]);
    const errors = await fieldErrors(
      await send(
        "POST",
        "webhook-groups/create",
        form([
          ["name", "ü".repeat(256)],
          ["notification_emails[]", "not an address"],
          ["enabled", "1"],
        ]),
      ),
    );
    expect(errors.map((error) => error.field).sort()).toEqual(["enabled", "name", "notification_emails"]);
    const fiftyOne = Array.from({ length: 51 }, (_, i): [string, string] => ["notification_emails[]", `a${i}@example.com`]);
    expect((await fieldErrors(await send("POST", "webhook-groups/create", form([["name", "x"], ...fiftyOne])))).map((error) => error.field)).toEqual([
      "notification_emails",
    ]);
  });

  it("a group that still has webhooks cannot be deleted (422 on id); another account's group is a 404", async () => {
    const full = groups.find((group) => group.id)!;
    const count = (await read<{ webhooks: Webhook[] }>(`webhook-groups/${full.id}?expand=webhooks`)).body!.webhooks.length;
    if (count > 0) expect(await fieldErrors(await send("DELETE", `webhook-groups/${full.id}`))).toEqual([{ field: "id", message: expect.stringMatching(/still has/) }]);
    const theirs = await theirGroup();
    await expectError(await send("PUT", `webhook-groups/update/${theirs}`, form([["name", "x"]])), 404, /No webhook group/);
    await expectError(await send("DELETE", `webhook-groups/${theirs}`), 404, /No webhook group/);
  });
});

describe("credits, isolation and faults", () => {
  it("each write costs 1 credit, refused ones too", async () => {
    await sandbox.admin.setRateLimit({ credits: 100 });
    const first = await send("POST", "webhook-groups/create", form([["name", "a"]]));
    const remaining = Number(first.headers.get("x-rate-limit-remaining"));
    const refused = await send("POST", "webhook-groups/create", form([["name", ""]]));
    expect(refused.status).toBe(422);
    expect(Number(refused.headers.get("x-rate-limit-remaining"))).toBe(remaining - 1);
  });

  it("another account sees none of the writes", async () => {
    const created = (await (await send("POST", "webhooks/create", minimal())).json()) as Webhook;
    expect((await read(`webhooks/${created.id}`, otherToken)).status).toBe(404);
    expect((await sandbox.admin.state()).editedAccounts).toEqual([DEMO_CREDENTIALS.consumerKey]);
  });

  it("faults: `write` hits writes only, `skip` lets the first ones through, `afterWrite` makes the write and loses the answer", async () => {
    await sandbox.admin.injectFaults({ count: 1, status: 500, paths: "write", skip: 2 });
    expect((await read(`webhook-groups/${groups[0].id}`)).status).toBe(200);
    expect((await send("POST", "webhook-groups/create", form([["name", "one"]]))).status).toBe(201);
    expect((await send("POST", "webhook-groups/create", form([["name", "two"]]))).status).toBe(201);
    expect((await send("POST", "webhook-groups/create", form([["name", "three"]]))).status).toBe(500);
    expect((await send("POST", "webhook-groups/create", form([["name", "four"]]))).status).toBe(201);
    const names = async () => (await listAll<{ name: string }>(sandbox.baseUrl, token, "webhook-groups", "fields=name&sort=-id")).slice(0, 3).map((group) => group.name);
    expect(await names()).toEqual(["four", "two", "one"]);

    await sandbox.admin.injectFaults({ count: 1, status: 503, paths: "write", afterWrite: true });
    expect((await send("POST", "webhook-groups/create", form([["name", "lost answer"]]))).status).toBe(503);
    expect((await names())[0]).toBe("lost answer");
  });

  it("faults: `account` limits a rule to that account's calls; another account's writes pass untouched and leave it pending", async () => {
    await sandbox.admin.injectFaults({ count: 1, status: 500, paths: "write", account: OTHER_CREDENTIALS.consumerKey });
    expect((await send("POST", "webhook-groups/create", form([["name", "demo's"]]))).status).toBe(201);
    expect((await sandbox.admin.state()).pendingFaults).toBe(1);
    expect((await send("POST", "webhook-groups/create", form([["name", "theirs"]]), { as: otherToken })).status).toBe(500);
    expect((await sandbox.admin.state()).pendingFaults).toBe(0);
    expect((await send("POST", "webhook-groups/create", form([["name", "theirs again"]]), { as: otherToken })).status).toBe(201);
  });
});

describe("the new read fields", () => {
  it("webhooks carry post_field_data and custom_fields; events the fields production also knows, US events US zones", async () => {
    const hooks = await listAll<Webhook>(sandbox.baseUrl, token, "webhooks");
    for (const hook of hooks) webhookSchema.strict().parse(hook);
    expect(hooks.some((hook) => hook.custom_fields.length > 0)).toBe(true);
    expect(hooks.some((hook) => hook.post_field_data.length > 0)).toBe(true);
    const all = await listAll<{ name: string; timezone: string; hashtag: string | null; created_by: string | null }>(
      sandbox.baseUrl,
      token,
      "events",
      "fields=name,timezone,hashtag,created_by",
    );
    const us = all.filter((event) => /New York|Chicago/.test(event.name));
    expect(us.length).toBeGreaterThan(0);
    for (const event of us) expect(event.timezone).toMatch(/^US\//);
    expect(all.every((event) => event.created_by !== undefined)).toBe(true);
  });
});
