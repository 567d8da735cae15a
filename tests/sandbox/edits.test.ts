import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_SECRET_HEADER } from "@/lib/sandbox/api/admin";
import { webhookSchema, type Webhook } from "@/lib/sandbox/api/resources";
import { DEFAULT_ACCOUNTS } from "@/lib/sandbox/core/config";
import { generateEvents, generateWebhookGroups } from "@/lib/sandbox/data/generate";
import { OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import type { AppliedEdit, EditInput } from "@/lib/sandbox/testing";
import { DEMO_CREDENTIALS, expectError, listAll, listOk, startSandboxServer, tokenFor, type StartedSandbox } from "./helpers";

/**
 * `POST {base}/__admin/edits`: the sandbox edits an account as a person in the EMS web app would,
 * and every listing, search, sort, projection and record read answers from the new data, however
 * much of the old one was cached. Black-box over HTTP: each check asks the same question before the
 * edit (so every cache holds the old answer) and after it.
 */
const ADMIN_SECRET = "edits-admin-secret";
const DEMO = DEMO_CREDENTIALS.consumerKey;

type Group = { id: number; name: string; headers: { key: string; value: string }[]; notification_emails: string[]; webhooks: Webhook[] };

let sandbox: StartedSandbox;
let token: string;
let otherToken: string;
/** The demo account as generated, every group with its webhooks. */
let original: Group[];

beforeAll(async () => {
  sandbox = await startSandboxServer({ adminSecret: ADMIN_SECRET });
  await sandbox.admin.setRateLimit({ credits: 1_000_000 });
  token = await tokenFor(sandbox.baseUrl);
  otherToken = await tokenFor(sandbox.baseUrl, OTHER_CREDENTIALS);
  original = await listAll<Group>(sandbox.baseUrl, token, "webhook-groups", "expand=webhooks");
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.admin.reset();
  await sandbox.admin.setRateLimit({ credits: 1_000_000 });
});

const get = async <T>(path: string, as = token): Promise<T> => {
  const response = await fetch(`${sandbox.baseUrl}/api/v1/${path}`, { headers: { authorization: `Bearer ${as}` } });
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};
const webhooks = (query = "", as = token) => listAll<Webhook>(sandbox.baseUrl, as, "webhooks", query);
const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
const search = (condition: string) => `search=${encodeURIComponent(condition)}`;
const postEdits = (body: unknown) =>
  fetch(`${sandbox.baseUrl}/__admin/edits`, {
    method: "POST",
    headers: { [ADMIN_SECRET_HEADER]: ADMIN_SECRET, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const edit = (...edits: EditInput[]) => sandbox.admin.applyEdits(DEMO, edits);
const parseEmsTimestamp = (value: string) => Date.parse(`${value.replace(" ", "T")}Z`);

/** A generated webhook of the first groups matching `test`. */
function someWebhook(test: (webhook: Webhook) => boolean = () => true): Webhook {
  const found = original
    .slice(0, 40)
    .flatMap((group) => group.webhooks)
    .find(test);
  if (!found) throw new Error("no such webhook in the demo data");
  return found;
}

/**
 * An account's data generated afresh, in objects no sandbox has seen: what "the generated data"
 * must still be after edits, however the sandbox shares or caches it.
 */
function generatedAfresh({ groups, events, seed }: { groups: number; events: number; seed: number }): Group[] {
  const generated = generateWebhookGroups(groups, seed, generateEvents(events, seed));
  return Array.from({ length: groups }, (_, index) => ({ ...generated.groupAt(index), webhooks: generated.webhooksOf(index) }));
}

/** Every field but `notes`: a projection no other test asks for, so no cached row JSON answers it. */
const UNCACHED_WEBHOOK_FIELDS = `fields=${Object.keys(webhookSchema.shape)
  .filter((field) => field !== "notes")
  .join(",")}`;
const withoutNotes = (webhook: Webhook) => Object.fromEntries(Object.entries(webhook).filter(([field]) => field !== "notes"));

/** Everything an account serves about its webhook setup, for before/after comparisons. */
async function snapshot(as = token) {
  return {
    groups: await listAll<Group>(sandbox.baseUrl, as, "webhook-groups", "expand=webhooks"),
    webhooks: await webhooks("", as),
    byName: await listAll<Group>(sandbox.baseUrl, as, "webhook-groups", "fields=id,name&sort=-name"),
    disabled: await webhooks(`fields=id&${search("enabled=0")}`, as),
  };
}

describe("each kind of edit shows everywhere it should", () => {
  it("set-url: in /webhooks, its record, its group's webhooks, a url search and sort; updated_at and updated_by set", async () => {
    const target = someWebhook((webhook) => webhook.url.startsWith("https://"));
    const url = "http://0-first.example/ems/registrant/edit-marker-1";
    const questions = {
      record: `webhooks/${target.id}`,
      projected: `webhooks?fields=id,url&ids=${target.id}`,
      group: `webhook-groups/${target.group_id}?expand=webhooks`,
      searched: `webhooks?fields=id&${search("url=*contains*EDIT-MARKER")}`,
      firstByUrl: "webhooks?fields=id,url&sort=url&per-page=1",
    };
    const before = Object.fromEntries(await Promise.all(Object.entries(questions).map(async ([name, path]) => [name, await get<unknown>(path)])));
    expect((before.searched as { items: unknown[] }).items).toEqual([]);
    expect((before.firstByUrl as { items: { id: number }[] }).items[0].id).not.toBe(target.id);
    const allBefore = await webhooks("fields=id,url");

    const [applied] = await edit({ kind: "set-url", webhookId: target.id, url, by: "jane.doe@example.com" });
    expect(applied).toMatchObject({
      kind: "set-url",
      groupId: target.group_id,
      webhookId: target.id,
      field: "url",
      before: target.url,
      after: url,
      by: "jane.doe@example.com",
    });
    expect(Math.abs(parseEmsTimestamp(applied.at) - Date.now())).toBeLessThan(5_000);

    const record = await get<Webhook>(questions.record);
    expect(record).toEqual({ ...target, url, updated_at: applied.at, updated_by: "jane.doe@example.com" });
    webhookSchema.strict().parse(record);
    expect(await get(questions.projected)).toMatchObject({ items: [{ id: target.id, url }] });
    // The same projection on another page of the listing: the row's cached JSON must not answer.
    expect((await webhooks("fields=id,url")).find((webhook) => webhook.id === target.id)).toEqual({ id: target.id, url });
    expect(allBefore.find((webhook) => webhook.id === target.id)?.url).toBe(target.url);
    const group = await get<Group>(questions.group);
    expect(group.webhooks.find((webhook) => webhook.id === target.id)).toEqual(record);
    expect(await get(questions.searched)).toMatchObject({ items: [{ id: target.id }], _meta: { totalCount: 1 } });
    // Same condition, another page size: a cached search mask must not answer either.
    expect(ids(await webhooks(search("url=*contains*edit-marker")))).toEqual([target.id]);
    expect(await get(questions.firstByUrl)).toMatchObject({ items: [{ id: target.id, url }] });
    expect(ids(await webhooks(`fields=id&sort=url,id&${search("url=*beginswith*http://0-")}`))).toEqual([target.id]);
    // Found by its new updated_at, which only it has.
    expect(ids(await webhooks(`fields=id&${search(`updated_at=${applied.at}`)}`))).toContain(target.id);
  });

  it("set-enabled: an enabled=0 search finds it, enabled=1 no longer does; the default editor signs it", async () => {
    const target = someWebhook((webhook) => webhook.enabled);
    const disabledBefore = ids(await webhooks(`fields=id&${search("enabled=0")}`));
    const enabledBefore = ids(await webhooks(`fields=id&${search("enabled=1")}`));
    expect(disabledBefore).not.toContain(target.id);

    const [applied] = await edit({ kind: "set-enabled", webhookId: target.id, enabled: false });
    expect(applied).toMatchObject({ kind: "set-enabled", webhookId: target.id, field: "enabled", before: true, after: false });
    // A person's name or email, as the generated updated_by values are.
    expect(applied.by).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);

    expect(ids(await webhooks(`fields=id&${search("enabled=0")}`))).toEqual([...disabledBefore, target.id].sort((a, b) => a - b));
    expect(ids(await webhooks(`fields=id&${search("enabled=1")}`))).toEqual(enabledBefore.filter((id) => id !== target.id));
    const record = await get<Webhook>(`webhooks/${target.id}`);
    expect(record).toMatchObject({ enabled: false, updated_at: applied.at, updated_by: applied.by, created_at: target.created_at, created_by: target.created_by });
    const group = await get<Group>(`webhook-groups/${target.group_id}?expand=webhooks&fields=id`);
    expect(group.webhooks.find((webhook) => webhook.id === target.id)?.enabled).toBe(false);
  });

  it("updated_at is the sandbox clock's now", async () => {
    await sandbox.admin.setClockOffset(2 * 86_400);
    const target = someWebhook();
    const [applied] = await edit({ kind: "set-enabled", webhookId: target.id, enabled: !target.enabled });
    expect(Math.abs(parseEmsTimestamp(applied.at) - (Date.now() + 2 * 86_400_000))).toBeLessThan(5_000);
    // (A token from before the jump has expired on the shifted clock.)
    expect((await get<Webhook>(`webhooks/${target.id}`, await tokenFor(sandbox.baseUrl))).updated_at).toBe(applied.at);
  });

  it("add-webhook: an id above every webhook of every account, defaults for what is not given, in every listing", async () => {
    const group = original[3];
    const event = (await listOk<{ id: number }>(sandbox.baseUrl, token, "events")).items[0];
    const highest = async (as: string) => (await get<{ items: { id: number }[] }>("webhooks?fields=id&sort=-id&per-page=1", as)).items[0].id;
    const [demoHighest, otherHighest] = [await highest(token), await highest(otherToken)];
    const countBefore = (await get<{ _meta: { totalCount: number } }>("webhooks?fields=id"))._meta.totalCount;
    const groupBefore = await get<Group>(`webhook-groups/${group.id}?expand=webhooks`);

    const [applied] = await edit({
      kind: "add-webhook",
      groupId: group.id,
      webhook: { name: "Badge printer", url: "https://hooks.acme.example/ems/registrant/new", event_ids: [event.id] },
      by: "Kenji Watanabe",
    });
    const id = applied.webhookId!;
    expect(id).toBeGreaterThan(Math.max(demoHighest, otherHighest));
    expect(applied).toMatchObject({ kind: "add-webhook", groupId: group.id, field: "webhook", before: null });

    const record = await get<Webhook>(`webhooks/${id}`);
    webhookSchema.strict().parse(record);
    expect(record).toMatchObject({
      id,
      group_id: group.id,
      name: "Badge printer",
      url: "https://hooks.acme.example/ems/registrant/new",
      event_ids: [event.id],
      enabled: true,
      any_event: false,
      headers: [],
      notes: null,
      created_at: applied.at,
      updated_at: applied.at,
      created_by: "Kenji Watanabe",
      updated_by: "Kenji Watanabe",
    });
    expect(applied.after).toEqual(record);
    expect(await get(`webhook-groups/${group.id}?expand=webhooks`)).toEqual({ ...groupBefore, webhooks: [...groupBefore.webhooks, record] });
    expect(await get("webhooks?fields=id&sort=-id&per-page=1")).toMatchObject({ items: [{ id }] });
    expect((await get<{ _meta: { totalCount: number } }>("webhooks?fields=id"))._meta.totalCount).toBe(countBefore + 1);
    expect(ids(await webhooks(`fields=id&${search(`group_id=${group.id}`)}`))).toEqual([...groupBefore.webhooks.map((webhook) => webhook.id), id]);
    // The whole listing stays in id order.
    const all = ids(await webhooks("fields=id"));
    expect(all).toEqual([...all].sort((a, b) => a - b));
    // A second one gets the next id; the other account cannot see either.
    const [second] = await edit({ kind: "add-webhook", groupId: group.id });
    expect(second.webhookId).toBe(id + 1);
    expect((await fetch(`${sandbox.baseUrl}/api/v1/webhooks/${id}`, { headers: { authorization: `Bearer ${otherToken}` } })).status).toBe(404);
  });

  it("remove-webhook: gone from its record, its group and /webhooks; the answer masks its header values", async () => {
    const target = someWebhook((webhook) => webhook.headers.length > 0);
    await get(`webhooks/${target.id}`);
    const countBefore = (await get<{ _meta: { totalCount: number } }>("webhooks?fields=id"))._meta.totalCount;

    const response = await postEdits({ account: DEMO, edits: [{ kind: "remove-webhook", webhookId: target.id }] });
    const text = await response.text();
    for (const { value } of target.headers) expect(text).not.toContain(value);
    const [applied] = (JSON.parse(text) as { applied: AppliedEdit[] }).applied;
    expect(applied).toMatchObject({ kind: "remove-webhook", groupId: target.group_id, webhookId: target.id, field: "webhook", after: null });
    expect((applied.before as Webhook).url).toBe(target.url);

    await expectError(
      await fetch(`${sandbox.baseUrl}/api/v1/webhooks/${target.id}`, { headers: { authorization: `Bearer ${token}` } }),
      404,
      `No webhook with id ${target.id}.`,
    );
    const group = await get<Group>(`webhook-groups/${target.group_id}?expand=webhooks`);
    expect(ids(group.webhooks)).not.toContain(target.id);
    expect((await get<{ _meta: { totalCount: number } }>("webhooks?fields=id"))._meta.totalCount).toBe(countBefore - 1);
    expect(ids(await webhooks(`fields=id&${search(`group_id=${target.group_id}`)}`))).toEqual(ids(group.webhooks));
    await expectError(
      await postEdits({ account: DEMO, edits: [{ kind: "remove-webhook", webhookId: target.id }] }),
      400,
      `The account has no webhook with id ${target.id}.`,
    );
  });

  it("set-header and remove-header, on a group and on a webhook, never echo a header value", async () => {
    const group = original.find((candidate) => candidate.headers.some((header) => header.key === "X-Api-Key"))!;
    const hook = someWebhook((webhook) => webhook.headers.length === 0 && webhook.group_id !== group.id);
    await get(`webhook-groups/${group.id}`);
    await get(`webhooks/${hook.id}`);

    const response = await postEdits({
      account: DEMO,
      edits: [
        { kind: "set-header", target: "group", id: group.id, key: "X-Api-Key", value: "k-group-secret-1" },
        { kind: "set-header", target: "group", id: group.id, key: "X-Tenant-Id", value: "tenant-secret-2" },
        { kind: "set-header", target: "webhook", id: hook.id, key: "Authorization", value: "Bearer hook-secret-3" },
      ],
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const secret of ["k-group-secret-1", "tenant-secret-2", "hook-secret-3", ...group.headers.map((header) => header.value)]) expect(text).not.toContain(secret);
    const { applied } = JSON.parse(text) as { applied: AppliedEdit[] };
    expect(applied.map(({ field, before, after }) => ({ field, before, after }))).toEqual([
      { field: "headers.X-Api-Key", before: "********", after: "********" },
      { field: "headers.X-Tenant-Id", before: null, after: "********" },
      { field: "headers.Authorization", before: null, after: "********" },
    ]);

    // Replaced in place (one X-Api-Key, where it was), the new one last.
    const replaced = group.headers.map((header) => (header.key === "X-Api-Key" ? { key: "X-Api-Key", value: "k-group-secret-1" } : header));
    expect((await get<Group>(`webhook-groups/${group.id}`)).headers).toEqual([...replaced, { key: "X-Tenant-Id", value: "tenant-secret-2" }]);
    expect((await get<Group>(`webhook-groups/${group.id}?expand=webhooks`)).webhooks).toEqual(group.webhooks);
    const record = await get<Webhook>(`webhooks/${hook.id}`);
    expect(record).toMatchObject({ headers: [{ key: "Authorization", value: "Bearer hook-secret-3" }], updated_at: applied[2].at, updated_by: applied[2].by });
    expect((await webhooks(`fields=id,headers&${search(`group_id=${hook.group_id}`)}`)).find((row) => row.id === hook.id)?.headers).toEqual(record.headers);

    const [removed] = await edit({ kind: "remove-header", target: "webhook", id: hook.id, key: "authorization", by: "ops@example.org" });
    expect(removed).toMatchObject({ field: "headers.Authorization", before: "********", after: null });
    expect(await get<Webhook>(`webhooks/${hook.id}`)).toMatchObject({ headers: [], updated_by: "ops@example.org" });
    await edit({ kind: "remove-header", target: "group", id: group.id, key: "X-Tenant-Id" });
    expect((await get<Group>(`webhook-groups/${group.id}`)).headers).toEqual(replaced);
    await expectError(
      await postEdits({ account: DEMO, edits: [{ kind: "remove-header", target: "webhook", id: hook.id, key: "Authorization" }] }),
      400,
      `The webhook with id ${hook.id} has no header "Authorization".`,
    );
  });

  it("rename-group: its record, a name search and the name sort follow", async () => {
    const group = original[10];
    const firstByName = () => get<{ items: { id: number; name: string }[] }>("webhook-groups?fields=id,name&sort=name&per-page=1");
    expect((await firstByName()).items[0].id).not.toBe(group.id);
    const found = () => listAll<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", `fields=id&${search("name=*contains*renamed by")}`);
    expect(await found()).toEqual([]);
    await get(`webhook-groups/${group.id}`);

    const [applied] = await edit({ kind: "rename-group", groupId: group.id, name: "0 Renamed by a person" });
    expect(applied).toMatchObject({ kind: "rename-group", groupId: group.id, field: "name", before: group.name, after: "0 Renamed by a person" });
    expect(applied).not.toHaveProperty("webhookId");
    expect(await get<Group>(`webhook-groups/${group.id}`)).toEqual({
      id: group.id,
      name: "0 Renamed by a person",
      headers: group.headers,
      notification_emails: group.notification_emails,
      updated_at: applied.at,
      updated_by: "marie.dupont@example.com",
    });
    expect(await firstByName()).toMatchObject({ items: [{ id: group.id, name: "0 Renamed by a person" }] });
    expect(ids(await found())).toEqual([group.id]);
    const byNameDesc = await listAll<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", "fields=id&sort=-name");
    expect(byNameDesc.at(-1)?.id).toBe(group.id);
    expect(ids(await listAll(sandbox.baseUrl, token, "webhook-groups", `fields=id&${search("name=*beginswith*0 renamed")}&sort=-id`))).toEqual([group.id]);
  });

  it("set-notification-emails: the group's record and its listing", async () => {
    const group = original[5];
    await get(`webhook-groups?ids=${group.id}`);
    const [applied] = await edit({ kind: "set-notification-emails", groupId: group.id, emails: ["oncall@example.com", "noc@example.org"] });
    expect(applied).toMatchObject({ field: "notification_emails", before: group.notification_emails, after: ["oncall@example.com", "noc@example.org"] });
    expect(await get(`webhook-groups?ids=${group.id}`)).toMatchObject({ items: [{ id: group.id, notification_emails: ["oncall@example.com", "noc@example.org"] }] });
    expect((await get<Group>(`webhook-groups/${group.id}?fields=notification_emails`)).notification_emails).toEqual(["oncall@example.com", "noc@example.org"]);
  });

  it("add-event: a live event with an id above every other, in /events, its record, a status search and a webhook's event_ids", async () => {
    type Event = { id: number; name: string; status: string; created_by: string | null };
    const before = await listAll<Event>(sandbox.baseUrl, token, "events");
    const [applied] = await edit({ kind: "add-event", event: { name: "Launch night · Łódź 🚀" }, by: "jane@example.com" });
    const id = Math.max(...ids(before)) + 1;
    expect(applied).toMatchObject({ kind: "add-event", eventId: id, field: "event", before: null, after: { id, status: "live" } });
    const after = await listAll<Event>(sandbox.baseUrl, token, "events");
    expect(ids(after)).toEqual([...ids(before), id]);
    expect(await get<Event>(`events/${id}?fields=id,name,status,created_by`)).toMatchObject({
      id,
      name: "Launch night · Łódź 🚀",
      status: "live",
      created_by: "jane@example.com",
    });
    expect(ids(await listAll<Event>(sandbox.baseUrl, token, "events", search("status=live")))).toContain(id);
    // The web app now offers it to a webhook: a new webhook may name it.
    const [added] = await edit({ kind: "add-webhook", groupId: original[0].id, webhook: { event_ids: [id] } });
    expect((await get<Webhook>(`webhooks/${added.webhookId}`)).event_ids).toEqual([id]);
    // The other account does not see it.
    expect(ids(await listAll<Event>(sandbox.baseUrl, otherToken, "events"))).not.toContain(id);
  });

  it("set-event-status: the event's record and a status search follow; an unknown event is refused", async () => {
    type Event = { id: number; status: string };
    const [draft] = await listAll<Event>(sandbox.baseUrl, token, "events", search("status=draft"));
    expect(draft, "the demo account has a draft event").toBeDefined();
    await get(`events/${draft.id}?fields=status`);
    const [applied] = await edit({ kind: "set-event-status", eventId: draft.id, status: "live" });
    expect(applied).toMatchObject({ eventId: draft.id, field: "status", before: "draft", after: "live" });
    expect((await get<Event>(`events/${draft.id}?fields=status`)).status).toBe("live");
    expect(ids(await listAll<Event>(sandbox.baseUrl, token, "events", search("status=draft")))).not.toContain(draft.id);
    const refused = await postEdits({ account: DEMO, edits: [{ kind: "set-event-status", eventId: 999_999, status: "live" }] });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("no event with id 999999");
  });
});

describe("random edits", () => {
  /** Runs a second or more apart stamp different times (`at`, and the timestamps of webhooks the answer shows). */
  const withoutTime = (applied: unknown) => JSON.parse(JSON.stringify(applied).replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/g, "T")) as unknown;

  it("are the same for the same seed and data, differ for another seed, and show in the data", async () => {
    const first = await sandbox.admin.applyRandomEdits(DEMO, { count: 20, seed: 42 });
    expect(first).toHaveLength(20);
    const state = await snapshot();
    await sandbox.admin.reset();
    await sandbox.admin.setRateLimit({ credits: 1_000_000 });
    const again = await sandbox.admin.applyRandomEdits(DEMO, { count: 20, seed: 42 });
    expect(withoutTime(again)).toEqual(withoutTime(first));
    expect(withoutTime(await snapshot())).toEqual(withoutTime(state));

    await sandbox.admin.reset();
    await sandbox.admin.setRateLimit({ credits: 1_000_000 });
    expect(withoutTime(await sandbox.admin.applyRandomEdits(DEMO, { count: 20, seed: 43 }))).not.toEqual(withoutTime(first));
    // Random edits go on from the data as it is: the same seed again now makes other edits.
    expect(withoutTime(await sandbox.admin.applyRandomEdits(DEMO, { count: 20, seed: 42 }))).not.toEqual(withoutTime(first));
  });

  it("stay mostly in the first 40 groups, use several kinds, mask header values, and leave what they say", async () => {
    const applied = await sandbox.admin.applyRandomEdits(DEMO, { count: 50, seed: 7 });
    const firstForty = new Set(original.slice(0, 40).map((group) => group.id));
    expect(applied.filter((change) => firstForty.has(change.groupId!)).length).toBeGreaterThanOrEqual(35);
    expect(new Set(applied.map((change) => change.kind)).size).toBeGreaterThanOrEqual(6);
    for (const change of applied.filter((one) => one.field.startsWith("headers."))) {
      expect([null, "********"]).toContain(change.before);
      expect([null, "********"]).toContain(change.after);
    }
    const groups = new Map((await listAll<Group>(sandbox.baseUrl, token, "webhook-groups", "expand=webhooks")).map((group) => [group.id, group]));
    const hooks = new Map((await webhooks()).map((webhook) => [webhook.id, webhook]));
    // The last change of each field is what the data shows.
    const last = new Map(applied.map((change) => [`${change.webhookId ?? `g${change.groupId}`} ${change.field}`, change]));
    for (const change of last.values()) {
      if (change.field === "url" || change.field === "enabled") {
        const hook = hooks.get(change.webhookId!);
        if (hook) expect(hook[change.field]).toEqual(change.after);
        if (hook) expect(hook.updated_by).not.toBeNull();
      } else if (change.field === "name" || change.field === "notification_emails") {
        expect(groups.get(change.groupId!)![change.field]).toEqual(change.after);
      } else if (change.field === "webhook") {
        expect(hooks.has(change.webhookId!)).toBe(change.after !== null);
      }
    }
    for (const change of applied.filter((one) => one.field === "url")) expect(change.after).toMatch(/^https:\/\/hooks\.[a-z]+\.example\/ems\//);
  });
});

describe("accounts and reset", () => {
  it("an edit of one account leaves another account untouched", async () => {
    const other = await snapshot(otherToken);
    await edit({ kind: "rename-group", groupId: original[0].id, name: "Only in the demo account" });
    await sandbox.admin.applyRandomEdits(DEMO, { count: 30, seed: 1 });
    expect(await snapshot(otherToken)).toEqual(other);
  });

  it("accounts (and sandboxes) generated from the same seed share nothing once one is edited", async () => {
    const twins = [
      { key: "twin_a", secret: "secret-a", groups: 30, events: 8, seed: 5 },
      { key: "twin_b", secret: "secret-b", groups: 30, events: 8, seed: 5 },
    ];
    const one = await startSandboxServer({ accounts: twins, adminSecret: ADMIN_SECRET });
    const two = await startSandboxServer({ accounts: twins, adminSecret: ADMIN_SECRET });
    try {
      const tokenA = await tokenFor(one.baseUrl, { consumerKey: "twin_a", consumerSecret: "secret-a" });
      const tokenB = await tokenFor(one.baseUrl, { consumerKey: "twin_b", consumerSecret: "secret-b" });
      const tokenTwo = await tokenFor(two.baseUrl, { consumerKey: "twin_a", consumerSecret: "secret-a" });
      const all = (baseUrl: string, as: string) => listAll<Group>(baseUrl, as, "webhook-groups", "expand=webhooks");
      // Known without asking the sandboxes, so none of them has cached an answer before the edits.
      const generated = generatedAfresh(twins[0]);

      const hook = generated.flatMap((group) => group.webhooks)[0];
      await one.admin.applyEdits("twin_a", [
        { kind: "set-url", webhookId: hook.id, url: "https://hooks.globex.example/ems/event/twin" },
        { kind: "set-header", target: "group", id: generated[0].id, key: "X-Api-Key", value: "k-twin" },
        { kind: "rename-group", groupId: generated[1].id, name: "Twin A only" },
      ]);
      await one.admin.applyRandomEdits("twin_a", { count: 20, seed: 9 });
      expect(await all(one.baseUrl, tokenA)).not.toEqual(generated);
      expect(await all(one.baseUrl, tokenB)).toEqual(generated);
      expect(await all(two.baseUrl, tokenTwo)).toEqual(generated);
      expect(await listAll(one.baseUrl, tokenB, "webhooks")).toEqual(generated.flatMap((group) => group.webhooks));
      expect(await fetch(`${one.baseUrl}/api/v1/webhooks/${hook.id}`, { headers: { authorization: `Bearer ${tokenB}` } }).then((response) => response.json())).toEqual(
        hook,
      );
      expect(await one.admin.state()).toMatchObject({ editedAccounts: ["twin_a"] });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("POST reset puts the generated data back", async () => {
    const generated = await snapshot();
    await edit(
      { kind: "rename-group", groupId: original[0].id, name: "Before the reset" },
      { kind: "add-webhook", groupId: original[1].id },
      { kind: "remove-webhook", webhookId: someWebhook().id },
      { kind: "set-enabled", webhookId: someWebhook((webhook) => !webhook.enabled).id, enabled: true },
    );
    await sandbox.admin.applyRandomEdits(DEMO, { count: 25, seed: 3 });
    expect(await snapshot()).not.toEqual(generated);
    expect((await sandbox.admin.state()).editedAccounts).toEqual([DEMO]);

    await sandbox.admin.reset();
    await sandbox.admin.setRateLimit({ credits: 1_000_000 });
    expect(await snapshot()).toEqual(generated);
    const afresh = generatedAfresh(DEFAULT_ACCOUNTS[0]);
    expect(await webhooks(UNCACHED_WEBHOOK_FIELDS)).toEqual(afresh.flatMap((group) => group.webhooks).map(withoutNotes));
    expect((await sandbox.admin.state()).editedAccounts).toEqual([]);
    // Ids start over too: the same edit after a reset makes the same webhook.
    const [first] = await edit({ kind: "add-webhook", groupId: original[1].id });
    await sandbox.admin.reset();
    const [again] = await edit({ kind: "add-webhook", groupId: original[1].id });
    expect(again.webhookId).toBe(first.webhookId);
  });
});

describe("bad input", () => {
  it("is a 400 that says what is wrong, and applies nothing", async () => {
    // Generated webhook ids repeat across accounts (they derive from group ids): take one the other account lacks.
    const otherIds = new Set(ids(await webhooks("fields=id", otherToken)));
    const hook = someWebhook((webhook) => !otherIds.has(webhook.id));
    const cases: [unknown, string | RegExp][] = [
      ["{not json", "The admin request body must be JSON."],
      [{}, /account/],
      [{ account: DEMO }, /Send edits \(a list of edits\), random \(\{ count, seed \}\), or both\./],
      [{ account: DEMO, edits: [] }, /edits/],
      [
        { account: "nope", edits: [{ kind: "set-enabled", webhookId: hook.id, enabled: false }] },
        'Unknown sandbox account "nope": use one of "ems_demo_key", "ems_other_key".',
      ],
      [{ account: "nope", random: { count: 1, seed: 1 } }, /^Unknown sandbox account "nope"/],
      [{ account: DEMO, edits: [{ kind: "paint-it-blue", webhookId: hook.id }] }, /kind/],
      [{ account: DEMO, edits: [{ kind: "set-url", webhookId: hook.id }] }, /url/],
      [{ account: DEMO, edits: [{ kind: "set-url", webhookId: hook.id, url: "ftp://files.example.com/x" }] }, /http:\/\/ or https:\/\/ URL/],
      [{ account: DEMO, edits: [{ kind: "set-enabled", webhookId: hook.id, enabled: "no" }] }, /enabled/],
      [{ account: DEMO, edits: [{ kind: "set-enabled", webhookId: hook.id, enabeld: false }] }, /enabeld/],
      [{ account: DEMO, edits: [{ kind: "set-header", target: "group", id: original[0].id, key: "Bad Key", value: "x" }] }, /header key/],
      [{ account: DEMO, edits: [{ kind: "set-header", target: "team", id: original[0].id, key: "X-A", value: "x" }] }, /target/],
      [{ account: DEMO, edits: [{ kind: "set-notification-emails", groupId: original[0].id, emails: ["not an email"] }] }, /emails/],
      [{ account: DEMO, edits: [{ kind: "add-webhook", groupId: original[0].id, webhook: { id: 5 } }] }, /id/],
      [{ account: DEMO, random: { count: 0, seed: 1 } }, /count/],
      [{ account: DEMO, random: { count: 51, seed: 1 } }, /count/],
      [{ account: DEMO, random: { count: 1, seed: 1.5 } }, /seed/],
      [{ account: DEMO, edits: [{ kind: "set-enabled", webhookId: 1, enabled: false }] }, "The account has no webhook with id 1."],
      [{ account: DEMO, edits: [{ kind: "rename-group", groupId: 999_999, name: "x" }] }, "The account has no webhook group with id 999999."],
      [{ account: DEMO, edits: [{ kind: "add-webhook", groupId: original[0].id, webhook: { event_ids: [1] } }] }, "The account has no event with id 1."],
      // A webhook of the other account is not this account's.
      [
        { account: OTHER_CREDENTIALS.consumerKey, edits: [{ kind: "set-enabled", webhookId: hook.id, enabled: false }] },
        `The account has no webhook with id ${hook.id}.`,
      ],
      // The first edit is fine, the second is not: neither is applied.
      [
        {
          account: DEMO,
          edits: [
            { kind: "set-enabled", webhookId: hook.id, enabled: !hook.enabled },
            { kind: "remove-webhook", webhookId: 3 },
          ],
        },
        "The account has no webhook with id 3.",
      ],
    ];
    for (const [body, message] of cases) await expectError(await postEdits(body), 400, message);
    expect(await get<Webhook>(`webhooks/${hook.id}`)).toEqual(hook);
    expect((await sandbox.admin.state()).editedAccounts).toEqual([]);
  });

  it("needs the admin secret", async () => {
    const response = await fetch(`${sandbox.baseUrl}/__admin/edits`, { method: "POST", body: JSON.stringify({ account: DEMO, random: { count: 1, seed: 1 } }) });
    await expectError(response, 403, "Wrong or missing sandbox admin secret.");
  });
});

describe("drift", () => {
  it("edits the first account every driftSeconds, and only that one", async () => {
    const drifting = await startSandboxServer({ driftSeconds: 0.2, adminSecret: ADMIN_SECRET });
    try {
      await drifting.admin.setRateLimit({ credits: 1_000_000 });
      const demoToken = await tokenFor(drifting.baseUrl);
      const other = await tokenFor(drifting.baseUrl, OTHER_CREDENTIALS);
      const otherBefore = await listAll(drifting.baseUrl, other, "webhook-groups", "expand=webhooks");
      const state = () => drifting.admin.state();
      expect((await state()).driftSeconds).toBe(0.2);
      const deadline = Date.now() + 10_000;
      while ((await state()).editedAccounts.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await state()).editedAccounts).toEqual([DEMO]);
      expect(await listAll<Group>(drifting.baseUrl, demoToken, "webhook-groups", "expand=webhooks")).not.toEqual(original);
      expect(await listAll(drifting.baseUrl, other, "webhook-groups", "expand=webhooks")).toEqual(otherBefore);
      // Reset puts the generated data back (drift goes on from the start of its sequence).
      await drifting.admin.reset();
      await drifting.admin.setRateLimit({ credits: 1_000_000 });
      const afterReset = await listAll<Group>(drifting.baseUrl, demoToken, "webhook-groups", "expand=webhooks");
      if ((await state()).editedAccounts.length === 0) expect(afterReset).toEqual(original);
    } finally {
      await drifting.close();
    }
  });

  it("is off by default", async () => {
    expect((await sandbox.admin.state()).driftSeconds).toBe(0);
  });
});
