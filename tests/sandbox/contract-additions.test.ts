import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAuthorizationHeader } from "@/lib/sandbox/core/basic-credentials";
import { OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { eventSchema, webhookSchema } from "@/lib/sandbox/api/resources";
import { DEMO_CREDENTIALS, FORM, expectError, list, listAll, listOk, startSandboxServer, tokenFor, type StartedSandbox } from "./helpers";

/**
 * The contract's additions of issue 13, black-box over HTTP: `.json` on every path (token
 * included), single-record reads (docs/ems-api.md §4.6), the webhooks listing (§4.1a) and the
 * `*in*` set operator (§4.4).
 */
type Hook = {
  id: number;
  group_id: number;
  name: string;
  url: string;
  trigger_object: string;
  content_type: string;
  enabled: boolean;
  any_event: boolean;
  updated_at: string;
};
type Group = { id: number; name: string; webhooks: Hook[] };
type Event = { id: number; name: string; status: string };

let sandbox: StartedSandbox;
let token: string;
let groups: Group[];
let hooks: Hook[];
let events: Event[];
beforeAll(async () => {
  sandbox = await startSandboxServer();
  await sandbox.admin.setRateLimit({ credits: 1_000_000 });
  token = await tokenFor(sandbox.baseUrl);
  groups = await listAll<Group>(sandbox.baseUrl, token, "webhook-groups", "expand=webhooks");
  hooks = await listAll<Hook>(sandbox.baseUrl, token, "webhooks");
  events = await listAll<Event>(sandbox.baseUrl, token, "events", "fields=id,name,status");
});
afterAll(() => sandbox.close());

const get = (path: string, bearer = token) => fetch(`${sandbox.baseUrl}/api/v1/${path}`, { headers: { authorization: `Bearer ${bearer}` } });
const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
const search = <T extends { id: number }>(resource: "webhook-groups" | "webhooks" | "events", condition: string, extra = "") =>
  listAll<T>(sandbox.baseUrl, token, resource, `search=${encodeURIComponent(condition)}${extra}`);
const badSearch = async (resource: "webhook-groups" | "webhooks" | "events", condition: string, message: string | RegExp) =>
  expectError(await list(sandbox.baseUrl, token, resource, `search=${encodeURIComponent(condition)}`), 400, message);

describe(".json on every path", () => {
  it("POST /api/v1/oauth2/token.json issues a token like /oauth2/token", async () => {
    const response = await fetch(`${sandbox.baseUrl}/api/v1/oauth2/token.json`, {
      method: "POST",
      headers: { authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret), "content-type": FORM },
      body: "grant_type=client_credentials",
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; type: string };
    expect(body.type).toBe("bearer");
    expect((await get("events.json", body.access_token)).status).toBe(200);
    // The same checks as the plain path: wrong method, wrong credentials.
    expect((await fetch(`${sandbox.baseUrl}/api/v1/oauth2/token.json`)).status).toBe(405);
  });

  it("listings and single records answer with .json too", async () => {
    for (const path of ["webhooks.json", "webhook-groups.json", "events.json"]) expect((await get(path)).status).toBe(200);
    const hook = hooks[0];
    expect(await (await get(`webhooks/${hook.id}.json`)).json()).toEqual(await (await get(`webhooks/${hook.id}`)).json());
    expect((await get(`events/${events[0].id}.json`)).status).toBe(200);
    expect((await get(`webhook-groups/${groups[0].id}.json`)).status).toBe(200);
  });

  it("unknown paths stay 404", async () => {
    for (const path of ["webhookz", "events/1/2", "events/", "oauth2/token.json.json"]) expect((await get(path)).status).toBe(404);
  });
});

describe("GET /api/v1/<resource>/{id}: one record", () => {
  it("answers the record itself, no envelope, shaped by fields and expand", async () => {
    const group = groups.find((candidate) => candidate.webhooks.length > 0)!;
    const whole = (await (await get(`webhook-groups/${group.id}?expand=webhooks`)).json()) as Group;
    expect(whole).toEqual(group);
    expect(await (await get(`webhook-groups/${group.id}?fields=id,name`)).json()).toEqual({ id: group.id, name: group.name });

    const event = events[5];
    // Without fields, an event is id and name only, as in the listing (§4.2).
    expect(await (await get(`events/${event.id}`)).json()).toEqual({ id: event.id, name: event.name });
    const full = await (await get(`events/${event.id}?fields=${Object.keys(eventSchema.shape).join(",")}`)).json();
    expect(eventSchema.strict().parse(full).status).toBe(event.status);

    const hook = group.webhooks[0];
    const single = await (await get(`webhooks/${hook.id}`)).json();
    expect(webhookSchema.strict().parse(single)).toEqual(hook);
    expect(await (await get(`webhooks/${hook.id}?fields=url,id`)).json()).toEqual({ id: hook.id, url: hook.url });
  });

  it("checks fields and expand like a listing", async () => {
    await expectError(await get(`events/${events[0].id}?fields=id,venue`), 400, /Unknown field "venue"/);
    await expectError(await get(`webhooks/${hooks[0].id}?expand=webhooks`), 400, 'Unknown expand "webhooks": webhooks have no extra fields.');
  });

  it("400 for an id that is not a positive integer", async () => {
    for (const id of ["0", "-1", "1.5", "abc", "1e3", "%20"]) {
      await expectError(await get(`webhook-groups/${id}`), 400, /is not a webhook group id: ids are positive integers\.$/);
    }
    await expectError(await get("events/x.json"), 400, '"x" is not an event id: ids are positive integers.');
  });

  it("404 for a record that does not exist or belongs to another account", async () => {
    await expectError(await get("webhook-groups/999999"), 404, "No webhook group with id 999999.");
    await expectError(await get("webhooks/999999.json"), 404, "No webhook with id 999999.");
    const otherToken = await tokenFor(sandbox.baseUrl, OTHER_CREDENTIALS);
    const otherGroups = await listAll<{ id: number }>(sandbox.baseUrl, otherToken, "webhook-groups", "fields=id");
    const onlyOther = otherGroups.find((group) => !groups.some((own) => own.id === group.id))!;
    expect((await get(`webhook-groups/${onlyOther.id}`, otherToken)).status).toBe(200);
    await expectError(await get(`webhook-groups/${onlyOther.id}`), 404, `No webhook group with id ${onlyOther.id}.`);
  });

  it("needs a valid bearer token and costs 1 credit", async () => {
    expect((await fetch(`${sandbox.baseUrl}/api/v1/events/${events[0].id}`)).status).toBe(401);
    await sandbox.admin.setRateLimit({ credits: 2000 });
    try {
      const fresh = await tokenFor(sandbox.baseUrl);
      const first = await get(`events/${events[0].id}`, fresh);
      const second = await get(`webhooks/${hooks[0].id}.json`, fresh);
      const notFound = await get("webhooks/999999", fresh);
      expect(Number(first.headers.get("x-rate-limit-remaining"))).toBe(2000 - 1 - 1);
      expect(Number(second.headers.get("x-rate-limit-remaining"))).toBe(2000 - 1 - 2);
      expect(Number(notFound.headers.get("x-rate-limit-remaining"))).toBe(2000 - 1 - 3);
      const listing = await get("webhooks", fresh);
      expect(Number(listing.headers.get("x-rate-limit-remaining"))).toBe(2000 - 1 - 3 - 10);
    } finally {
      await sandbox.admin.setRateLimit({ credits: 1_000_000 });
    }
  });
});

describe("GET /api/v1/webhooks", () => {
  it("lists every webhook of the account, the same as the groups' expand=webhooks, with every production field", async () => {
    const fromGroups = groups.flatMap((group) => group.webhooks);
    expect(hooks).toEqual(fromGroups);
    expect(hooks.length).toBeGreaterThan(200);
    for (const hook of hooks) webhookSchema.strict().parse(hook);
    const first = await listOk<Record<string, unknown>>(sandbox.baseUrl, token, "webhooks");
    expect(first._meta.totalCount).toBe(hooks.length);
    expect(Object.keys(first.items[0])).toEqual(Object.keys(webhookSchema.shape));
  });

  it("fields, page, per-page, sort and ids", async () => {
    const page = await listOk<Hook>(sandbox.baseUrl, token, "webhooks", "fields=id,url,group_id&page=2&per-page=7");
    expect(page._meta).toEqual({ totalCount: hooks.length, pageCount: Math.ceil(hooks.length / 7), currentPage: 2, perPage: 7 });
    expect(page.items).toEqual(hooks.slice(7, 14).map(({ id, url, group_id }) => ({ id, url, group_id })));

    const sorted = await listAll<Hook>(sandbox.baseUrl, token, "webhooks", "fields=id,trigger_object&sort=trigger_object,-id");
    const expected = [...hooks].sort((a, b) => (a.trigger_object < b.trigger_object ? -1 : a.trigger_object > b.trigger_object ? 1 : b.id - a.id));
    expect(ids(sorted)).toEqual(ids(expected));

    const chosen = [hooks[40].id, hooks[3].id, hooks[17].id];
    expect(ids((await listOk<Hook>(sandbox.baseUrl, token, "webhooks", `ids=${chosen.join(",")}`)).items)).toEqual([...chosen].sort((a, b) => a - b));

    await expectError(await list(sandbox.baseUrl, token, "webhooks", "sort=event_ids"), 400, /Unknown sort field "event_ids" for webhooks/);
    await expectError(await list(sandbox.baseUrl, token, "webhooks", "fields=id,colour"), 400, /Unknown field "colour" in fields for webhooks/);
  });

  it("searches every searchable field, with searchCondition", async () => {
    const group = groups[3];
    expect(ids(await search<Hook>("webhooks", `group_id=${group.id}`))).toEqual(ids(group.webhooks));
    expect(ids(await search<Hook>("webhooks", "enabled=0"))).toEqual(ids(hooks.filter((hook) => !hook.enabled)));
    expect(ids(await search<Hook>("webhooks", "any_event!=0"))).toEqual(ids(hooks.filter((hook) => hook.any_event)));
    expect(ids(await search<Hook>("webhooks", "url=*beginswith*HTTP://"))).toEqual(ids(hooks.filter((hook) => hook.url.startsWith("http://"))));
    expect(ids(await search<Hook>("webhooks", "content_type=post"))).toEqual(ids(hooks.filter((hook) => hook.content_type === "post")));
    expect(ids(await search<Hook>("webhooks", "name=*contains*crm"))).toEqual(ids(hooks.filter((hook) => hook.name.toLowerCase().includes("crm"))));
    expect(ids(await search<Hook>("webhooks", "updated_at>=2026-01-01"))).toEqual(ids(hooks.filter((hook) => hook.updated_at >= "2026-01-01")));
    expect(ids(await search<Hook>("webhooks", "trigger_object=session&enabled=1", "&searchCondition=or"))).toEqual(
      ids(hooks.filter((hook) => hook.trigger_object === "session" || hook.enabled)),
    );
    await badSearch("webhooks", "enabled=yes", 'Search value "yes" for enabled must be 0 or 1.');
    await badSearch("webhooks", "enabled>0", /Operator ">" does not apply to the boolean field "enabled"/);
    await badSearch("webhooks", "notes=*contains*x", /Unknown search field "notes" for webhooks/);
  });
});

describe("the set operator =*in* and !=*in*", () => {
  it("works on number, text, date and boolean fields of every listing", async () => {
    const chosen = [groups[2], groups[9], groups[30]];
    expect(ids(await search<Group>("webhook-groups", `id=*in*${chosen.map((group) => group.id).join("|")}`))).toEqual(ids(chosen));
    expect(ids(await search<Group>("webhook-groups", `id!=*in*${chosen.map((group) => group.id).join("|")}`))).toEqual(
      ids(groups.filter((group) => !chosen.includes(group))),
    );
    // Text compares whole values, case-insensitively.
    expect(ids(await search<Group>("webhook-groups", `name=*in*${chosen[0].name.toUpperCase()}|${chosen[1].name}|no such group`))).toEqual(ids(chosen.slice(0, 2)));
    expect(ids(await search<Event>("events", "status=*in*live|DRAFT"))).toEqual(ids(events.filter((event) => ["live", "draft"].includes(event.status))));
    expect(ids(await search<Event>("events", "status!=*in*live|draft"))).toEqual(ids(events.filter((event) => !["live", "draft"].includes(event.status))));
    expect(ids(await search<Hook>("webhooks", "trigger_object=*in*registrant|session_attendance"))).toEqual(
      ids(hooks.filter((hook) => ["registrant", "session_attendance"].includes(hook.trigger_object))),
    );
    expect(ids(await search<Hook>("webhooks", `group_id=*in*${groups[0].id}|${groups[1].id}`))).toEqual(ids([...groups[0].webhooks, ...groups[1].webhooks]));
    expect(ids(await search<Hook>("webhooks", "enabled=*in*0|1"))).toEqual(ids(hooks));
    const dated = await listAll<{ id: number; start_date: string }>(sandbox.baseUrl, token, "events", "fields=id,start_date");
    expect(ids(await search<Event>("events", `start_date=*in*${dated[0].start_date}|${dated[1].start_date}`))).toEqual(
      ids(dated.filter((event) => [dated[0].start_date, dated[1].start_date].includes(event.start_date))),
    );
    // Combined with another condition.
    expect(ids(await search<Hook>("webhooks", `group_id=*in*${groups[0].id}|${groups[1].id}&enabled=1`))).toEqual(
      ids([...groups[0].webhooks, ...groups[1].webhooks].filter((hook) => hook.enabled)),
    );
  });

  it("400 for an empty list, an empty entry, or a value that does not fit a numeric or boolean field", async () => {
    await badSearch("webhook-groups", "id=*in*", 'Malformed search condition "id=*in*": "*in*" needs at least one value, e.g. id=*in*a|b.');
    await badSearch("events", "status!=*in*", 'Malformed search condition "status!=*in*": "*in*" needs at least one value, e.g. status=*in*a|b.');
    await badSearch(
      "events",
      "status=*in*live||draft",
      'Malformed search condition "status=*in*live||draft": the list of "*in*" has an empty entry (check for a doubled or trailing |).',
    );
    await badSearch("webhooks", "name=*in*a|", 'Malformed search condition "name=*in*a|": the list of "*in*" has an empty entry (check for a doubled or trailing |).');
    await badSearch("webhook-groups", "id=*in*12|x|40", 'Search value "x" in the "*in*" list for id must be an integer.');
    await badSearch("webhooks", "group_id=*in*1.5", 'Search value "1.5" in the "*in*" list for group_id must be an integer.');
    await badSearch("webhooks", "enabled=*in*0|true", 'Search value "true" in the "*in*" list for enabled must be 0 or 1.');
  });
});
