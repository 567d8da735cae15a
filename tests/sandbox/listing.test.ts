import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventSchema, webhookGroupSchema, webhookSchema } from "@/lib/sandbox/api/resources";
import { expectError, list, listAll, listOk, startSandboxServer, tokenFor, type StartedSandbox } from "./helpers";

let sandbox: StartedSandbox;
let token: string;
let allGroups: { id: number; name: string }[];
beforeAll(async () => {
  sandbox = await startSandboxServer();
  await sandbox.admin.setRateLimit({ credits: 1_000_000 });
  token = await tokenFor(sandbox.baseUrl);
  allGroups = await listAll(sandbox.baseUrl, token, "webhook-groups");
});
afterAll(() => sandbox.close());

const groups = (query = "") => list(sandbox.baseUrl, token, "webhook-groups", query);
const bad = async (resource: "webhook-groups" | "events", query: string, message: string) =>
  expectError(await list(sandbox.baseUrl, token, resource, query), 400, message);

describe("the envelope", () => {
  it("returns 20 webhook groups with all standard fields, _links, _meta and the pagination headers", async () => {
    const response = await groups();
    expect(response.status).toBe(200);
    const body = (await response.json()) as { items: Record<string, unknown>[]; _links: Record<string, { href: string }>; _meta: Record<string, number> };
    expect(body._meta).toEqual({ totalCount: 140, pageCount: 7, currentPage: 1, perPage: 20 });
    expect(body.items).toHaveLength(20);
    for (const item of body.items) {
      expect(Object.keys(item)).toEqual(["id", "name", "headers", "notification_emails", "updated_at", "updated_by"]);
      webhookGroupSchema.strict().parse(item);
    }
    expect(Object.keys(body._links).sort()).toEqual(["first", "last", "next", "self"]);
    expect(body._links.self.href).toBe(`${sandbox.baseUrl}/api/v1/webhook-groups?page=1&per-page=20`);
    expect(body._links.next.href).toBe(`${sandbox.baseUrl}/api/v1/webhook-groups?page=2&per-page=20`);
    expect(body._links.last.href).toBe(`${sandbox.baseUrl}/api/v1/webhook-groups?page=7&per-page=20`);
    expect(response.headers.get("x-pagination-total-count")).toBe("140");
    expect(response.headers.get("x-pagination-page-count")).toBe("7");
    expect(response.headers.get("x-pagination-current-page")).toBe("1");
    expect(response.headers.get("x-pagination-per-page")).toBe("20");
    expect(response.headers.get("link")).toBe(
      [
        `<${body._links.self.href}>; rel=self`,
        `<${body._links.first.href}>; rel=first`,
        `<${body._links.last.href}>; rel=last`,
        `<${body._links.next.href}>; rel=next`,
      ].join(", "),
    );
  });

  it("answers the same paths with .json", async () => {
    const plain = await listOk(sandbox.baseUrl, token, "webhook-groups", "page=2");
    const json = (await (await fetch(`${sandbox.baseUrl}/api/v1/webhook-groups.json?page=2`, { headers: { authorization: `Bearer ${token}` } })).json()) as typeof plain;
    expect(json.items).toEqual(plain.items);
    expect(json._links.self?.href).toContain("/api/v1/webhook-groups.json?");
    const events = await fetch(`${sandbox.baseUrl}/api/v1/events.json`, { headers: { authorization: `Bearer ${token}` } });
    expect(events.status).toBe(200);
  });

  it("keeps the other parameters in the links and has prev/next only where such a page exists", async () => {
    const middle = await listOk(sandbox.baseUrl, token, "webhook-groups", "sort=-id&page=3&per-page=10");
    expect(middle._links.prev?.href).toBe(`${sandbox.baseUrl}/api/v1/webhook-groups?sort=-id&page=2&per-page=10`);
    expect(middle._links.next?.href).toBe(`${sandbox.baseUrl}/api/v1/webhook-groups?sort=-id&page=4&per-page=10`);
    const last = await listOk(sandbox.baseUrl, token, "webhook-groups", "page=14&per-page=10");
    expect(last._links.next).toBeUndefined();
    expect(last._links.prev).toBeDefined();
    const first = await listOk(sandbox.baseUrl, token, "webhook-groups", "per-page=10");
    expect(first._links.prev).toBeUndefined();
  });

  it("answers a page past the end with the last page, and says so in currentPage", async () => {
    const response = await groups("page=99");
    const body = (await response.json()) as { items: { id: number }[]; _meta: Record<string, number> };
    expect(body._meta).toEqual({ totalCount: 140, pageCount: 7, currentPage: 7, perPage: 20 });
    expect(response.headers.get("x-pagination-current-page")).toBe("7");
    expect(body.items.map((item) => item.id)).toEqual(allGroups.slice(120).map((group) => group.id));
  });

  it("an empty result has pageCount 0 and currentPage 1", async () => {
    const body = await listOk(sandbox.baseUrl, token, "webhook-groups", "search=name%3D*contains*zzzz-no-match&page=4");
    expect(body.items).toEqual([]);
    expect(body._meta).toEqual({ totalCount: 0, pageCount: 0, currentPage: 1, perPage: 20 });
  });
});

describe("data", () => {
  it("has realistic Unicode names, 0 to 8 webhooks of the contract's shape, headers and emails", async () => {
    const all = await listAll<{ id: number; name: string; headers: unknown[]; notification_emails: string[]; webhooks: unknown[] }>(
      sandbox.baseUrl,
      token,
      "webhook-groups",
      "expand=webhooks",
    );
    expect(all).toHaveLength(140);
    expect(all.some((group) => /[\u00C0-\u024F]/.test(group.name))).toBe(true);
    expect(all.some((group) => /[\u3040-\u9FFF\uAC00-\uD7AF]/.test(group.name))).toBe(true);
    expect(all.some((group) => /\p{Extended_Pictographic}/u.test(group.name))).toBe(true);
    const counts = new Set(all.map((group) => group.webhooks.length));
    expect(Math.min(...counts)).toBe(0);
    expect(Math.max(...counts)).toBe(8);
    expect(all.some((group) => group.headers.length > 0)).toBe(true);
    expect(all.some((group) => group.notification_emails.length > 0)).toBe(true);
    for (const group of all) {
      for (const hook of group.webhooks) expect(webhookSchema.strict().parse(hook).group_id).toBe(group.id);
    }
  });

  it("has events in every status and many time zones, with every field of docs/ems-api.md §4.2", async () => {
    const events = await listAll<Record<string, unknown>>(sandbox.baseUrl, token, "events", `fields=${Object.keys(eventSchema.shape).join(",")}`);
    expect(events).toHaveLength(60);
    for (const event of events) eventSchema.strict().parse(event);
    expect(new Set(events.map((event) => event.status))).toEqual(new Set(["live", "draft", "closed", "cancelled"]));
    expect(new Set(events.map((event) => event.timezone)).size).toBeGreaterThanOrEqual(30);
    expect(events.some((event) => event.capacity === null)).toBe(true);
    expect(events.some((event) => event.type_id === null)).toBe(true);
  });
});

describe("fields and expand", () => {
  it("events without fields return only id and name", async () => {
    const body = await listOk(sandbox.baseUrl, token, "events");
    expect(body._meta.totalCount).toBe(60);
    for (const item of body.items) expect(Object.keys(item)).toEqual(["id", "name"]);
  });

  it("fields limits the columns (in the resource's order, spaces around commas allowed)", async () => {
    const body = await listOk(sandbox.baseUrl, token, "webhook-groups", `fields=${encodeURIComponent("notification_emails , id")}`);
    for (const item of body.items) expect(Object.keys(item)).toEqual(["id", "notification_emails"]);
    const events = await listOk(sandbox.baseUrl, token, "events", "fields=timezone,status");
    for (const item of events.items) expect(Object.keys(item)).toEqual(["status", "timezone"]);
  });

  it("expand=webhooks adds the webhooks, also together with fields", async () => {
    const body = await listOk<{ webhooks: unknown[] }>(sandbox.baseUrl, token, "webhook-groups", "fields=id&expand=webhooks&per-page=50");
    for (const item of body.items) expect(Object.keys(item)).toEqual(["id", "webhooks"]);
    expect(body.items.some((item) => item.webhooks.length > 0)).toBe(true);
  });

  it("can send webhooks as an object keyed by id, the production quirk clients must survive", async () => {
    await sandbox.admin.setQuirks({ webhooksAsObject: true });
    try {
      const body = await listOk<{ id: number; webhooks: Record<string, { id: number; group_id: number }> }>(
        sandbox.baseUrl,
        token,
        "webhook-groups",
        "expand=webhooks&per-page=50",
      );
      const withHooks = body.items.find((item) => Object.keys(item.webhooks).length > 0)!;
      expect(Array.isArray(withHooks.webhooks)).toBe(false);
      for (const [key, hook] of Object.entries(withHooks.webhooks)) expect(String(hook.id)).toBe(key);
    } finally {
      await sandbox.admin.setQuirks({ webhooksAsObject: false });
    }
  });

  it("400 for unknown fields and expansions", async () => {
    await bad(
      "webhook-groups",
      "fields=id,colour",
      'Unknown field "colour" in fields for webhook groups. Fields: id, name, headers, notification_emails, updated_at, updated_by.',
    );
    await bad(
      "webhook-groups",
      "fields=id,webhooks",
      'Unknown field "webhooks" in fields for webhook groups (webhooks is an extra field: ask for it with expand=webhooks). Fields: id, name, headers, notification_emails, updated_at, updated_by.',
    );
    await bad("webhook-groups", "fields=id,,name", 'fields has an empty entry in "id,,name".');
    await bad("webhook-groups", "expand=events", 'Unknown expand "events" for webhook groups. Expandable: webhooks.');
    await bad("events", "expand=webhooks", 'Unknown expand "webhooks": events have no extra fields.');
    await bad(
      "events",
      "fields=id,venue",
      'Unknown field "venue" in fields for events. Fields: id, name, status, type_id, folder_id, start_date, end_date, start_time, end_time, timezone, capacity, free_event, url, created_at, updated_at, close_date, close_time, description, domain, hashtag, organizer_id, target_attendance, webinar_url, created_by, updated_by.',
    );
  });
});

describe("page and per-page", () => {
  it("walks pages without overlap", async () => {
    const page1 = await listOk<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", "per-page=50&page=1");
    const page2 = await listOk<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", "per-page=50&page=2");
    const page3 = await listOk<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", "per-page=50&page=3");
    expect([...page1.items, ...page2.items, ...page3.items].map((item) => item.id)).toEqual(allGroups.map((group) => group.id));
    expect(page3.items).toHaveLength(40);
    expect((await listOk(sandbox.baseUrl, token, "webhook-groups", "per-page=200"))._meta).toEqual({ totalCount: 140, pageCount: 1, currentPage: 1, perPage: 200 });
    expect((await listOk(sandbox.baseUrl, token, "webhook-groups", "per-page=1"))._meta.pageCount).toBe(140);
  });

  it("400 for a bad page or per-page", async () => {
    for (const value of ["0", "201", "-5", "1.5", "abc", "", "20x"]) {
      await bad("webhook-groups", `per-page=${value}`, `per-page must be an integer from 1 to 200; got "${value}".`);
    }
    for (const value of ["0", "-1", "2.0", "abc", ""]) {
      await bad("events", `page=${value}`, `page must be an integer of 1 or more; got "${value}".`);
    }
  });
});

describe("sort", () => {
  it("sorts by one field either way, names case-insensitively", async () => {
    const byIdDesc = await listAll<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", "sort=-id");
    expect(byIdDesc.map((group) => group.id)).toEqual(allGroups.map((group) => group.id).reverse());
    const byName = await listAll<{ id: number; name: string }>(sandbox.baseUrl, token, "webhook-groups", "sort=name");
    const lower = byName.map((group) => group.name.toLowerCase());
    expect(lower).toEqual([...lower].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const byNameDesc = await listAll<{ name: string }>(sandbox.baseUrl, token, "webhook-groups", "sort=-name");
    expect(byNameDesc.map((group) => group.name.toLowerCase())).toEqual([...lower].reverse());
  });

  it("sorts on several fields", async () => {
    const events = await listAll<{ id: number; status: string; start_date: string }>(
      sandbox.baseUrl,
      token,
      "events",
      "fields=id,status,start_date&sort=status,-start_date",
    );
    const expected = [...events].sort((a, b) =>
      a.status < b.status ? -1 : a.status > b.status ? 1 : a.start_date > b.start_date ? -1 : a.start_date < b.start_date ? 1 : a.id - b.id,
    );
    expect(events.map((event) => event.id)).toEqual(expected.map((event) => event.id));
    expect(events[0].status).toBe("cancelled");
  });

  it("400 for an unknown or unsortable field", async () => {
    await bad("webhook-groups", "sort=-colour", 'Unknown sort field "colour" for webhook groups. Sortable fields: id, name.');
    await bad("webhook-groups", "sort=headers", 'Unknown sort field "headers" for webhook groups. Sortable fields: id, name.');
    await bad("webhook-groups", "sort=id,", 'sort has an empty entry in "id,".');
  });
});

describe("ids", () => {
  it("returns only those records, duplicates once, spaces allowed, combined with sort and search", async () => {
    const [a, b, c] = [allGroups[3].id, allGroups[10].id, allGroups[42].id];
    const body = await listOk<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", `ids=${encodeURIComponent(`${c}, ${a} ,${b},${a}`)}`);
    expect(body.items.map((item) => item.id)).toEqual([a, b, c]);
    const sorted = await listOk<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", `ids=${a},${b},${c}&sort=-id`);
    expect(sorted.items.map((item) => item.id)).toEqual([c, b, a]);
    const searched = await listOk<{ id: number }>(sandbox.baseUrl, token, "webhook-groups", `ids=${a},${b},${c}&search=${encodeURIComponent(`id>${a}`)}`);
    expect(searched.items.map((item) => item.id)).toEqual([b, c]);
    // Ids that do not exist are simply not found.
    expect((await listOk(sandbox.baseUrl, token, "webhook-groups", "ids=999999"))._meta.totalCount).toBe(0);
    // 100 distinct ids (with duplicates on top) are accepted.
    const hundred = allGroups.slice(0, 100).map((group) => group.id);
    expect((await listOk(sandbox.baseUrl, token, "webhook-groups", `ids=${[...hundred, ...hundred.slice(0, 5)].join(",")}&per-page=200`))._meta.totalCount).toBe(100);
  });

  it("400 for anything but positive integers, empty entries or more than 100 ids", async () => {
    for (const value of ["0", "-1", "1.5", "abc", "+3", "1e3"]) {
      await bad("webhook-groups", `ids=1,${encodeURIComponent(value)}`, `ids must be comma-separated positive integers; "${value}" is not one.`);
    }
    await bad("webhook-groups", "ids=1,,2", 'ids must be comma-separated positive integers; "1,,2" has an empty entry.');
    await bad("webhook-groups", "ids=", 'ids must be comma-separated positive integers; "" has an empty entry.');
    await bad("events", `ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`, "ids accepts at most 100 ids; got 101.");
  });
});
