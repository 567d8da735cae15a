import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, list, listAll, startSandboxServer, tokenFor, type StartedSandbox } from "./helpers";

type Group = { id: number; name: string };
type Event = { id: number; name: string; status: string; start_date: string; end_date: string; created_at: string; updated_at: string };

let sandbox: StartedSandbox;
let token: string;
let groups: Group[];
let events: Event[];
beforeAll(async () => {
  sandbox = await startSandboxServer();
  await sandbox.admin.setRateLimit({ credits: 1_000_000 });
  token = await tokenFor(sandbox.baseUrl);
  groups = await listAll<Group>(sandbox.baseUrl, token, "webhook-groups", "fields=id,name");
  events = await listAll<Event>(sandbox.baseUrl, token, "events", "fields=id,name,status,start_date,end_date,created_at,updated_at");
});
afterAll(() => sandbox.close());

/** The search value is URL-encoded as a whole, so `&` between conditions travels as %26. */
const searchGroups = (search: string, extra = "") =>
  listAll<Group>(sandbox.baseUrl, token, "webhook-groups", `fields=id,name&search=${encodeURIComponent(search)}${extra}`);
const searchEvents = (search: string, extra = "") =>
  listAll<Event>(sandbox.baseUrl, token, "events", `fields=id,name,status,start_date,end_date,created_at,updated_at&search=${encodeURIComponent(search)}${extra}`);
const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
const badSearch = async (resource: "webhook-groups" | "events", search: string, message: string) =>
  expectError(await list(sandbox.baseUrl, token, resource, `search=${encodeURIComponent(search)}`), 400, message);

describe("search on text", () => {
  it("every text operator and its negation, case-insensitive", async () => {
    const lower = (group: Group) => group.name.toLowerCase();
    const cases: [string, (group: Group) => boolean][] = [
      ["name=*contains*SYNC", (g) => lower(g).includes("sync")],
      ["name!=*contains*sync", (g) => !lower(g).includes("sync")],
      ["name=*beginswith*café", (g) => lower(g).startsWith("café")],
      ["name!=*beginswith*CAFÉ", (g) => !lower(g).startsWith("café")],
      ["name=*endswith*#7", (g) => lower(g).endsWith("#7")],
      ["name!=*endswith*#7", (g) => !lower(g).endsWith("#7")],
      ["name=*contains*東京", (g) => g.name.includes("東京")],
      ["name=*contains*🚀", (g) => g.name.includes("🚀")],
      ["name=*Contains*sync", (g) => lower(g).includes("sync")],
    ];
    for (const [search, predicate] of cases) {
      const expected = groups.filter(predicate);
      expect(expected.length, search).toBeGreaterThan(0);
      expect(ids(await searchGroups(search)), search).toEqual(ids(expected));
    }
  });

  it("=, != and the comparisons on text compare case-insensitively", async () => {
    const target = groups[5];
    expect(ids(await searchGroups(`name=${target.name.toUpperCase()}`))).toEqual([target.id]);
    expect(ids(await searchGroups(`name!=${target.name}`))).toEqual(ids(groups.filter((g) => g.id !== target.id)));
    const lower = (g: Group) => g.name.toLowerCase();
    expect(ids(await searchGroups("name>m"))).toEqual(ids(groups.filter((g) => lower(g) > "m")));
    expect(ids(await searchGroups("name<=M"))).toEqual(ids(groups.filter((g) => lower(g) <= "m")));
  });

  it("a + in the query string is a space, %2B a plus", async () => {
    const withSpace = groups.filter((g) => g.name.toLowerCase().includes("crm sync"));
    expect(withSpace.length).toBeGreaterThan(0);
    const viaPlus = await listAll<Group>(sandbox.baseUrl, token, "webhook-groups", "fields=id,name&search=name%3D*contains*crm+sync");
    expect(ids(viaPlus)).toEqual(ids(withSpace));
  });
});

describe("search on numbers and dates", () => {
  it("numeric operators on id", async () => {
    const pivot = groups[70].id;
    const cases: [string, (id: number) => boolean][] = [
      [`id=${pivot}`, (id) => id === pivot],
      [`id!=${pivot}`, (id) => id !== pivot],
      [`id>${pivot}`, (id) => id > pivot],
      [`id<${pivot}`, (id) => id < pivot],
      [`id>=${pivot}`, (id) => id >= pivot],
      [`id<=${pivot}`, (id) => id <= pivot],
    ];
    for (const [search, predicate] of cases) {
      expect(ids(await searchGroups(search)), search).toEqual(ids(groups.filter((g) => predicate(g.id))));
    }
  });

  it("dates and timestamps compare as text, status as text", async () => {
    expect(ids(await searchEvents("start_date>=2026-01-01"))).toEqual(ids(events.filter((e) => e.start_date >= "2026-01-01")));
    expect(ids(await searchEvents("end_date<2025-06-30"))).toEqual(ids(events.filter((e) => e.end_date < "2025-06-30")));
    expect(ids(await searchEvents("created_at>2025-01-01 12:00:00"))).toEqual(ids(events.filter((e) => e.created_at > "2025-01-01 12:00:00")));
    expect(ids(await searchEvents("updated_at<=2025-06-01"))).toEqual(ids(events.filter((e) => e.updated_at <= "2025-06-01")));
    expect(ids(await searchEvents("start_date=*beginswith*2026-03"))).toEqual(ids(events.filter((e) => e.start_date.startsWith("2026-03"))));
    expect(ids(await searchEvents("status=LIVE"))).toEqual(ids(events.filter((e) => e.status === "live")));
    expect(ids(await searchEvents("status!=*contains*l"))).toEqual(ids(events.filter((e) => !e.status.includes("l"))));
  });
});

describe("combining conditions", () => {
  it("joins &-separated conditions with AND by default", async () => {
    const pivot = groups[30].id;
    const expected = groups.filter((g) => g.id >= pivot && !g.name.toLowerCase().endsWith("1"));
    expect(ids(await searchGroups(`id>=${pivot}&name!=*endswith*1`))).toEqual(ids(expected));
    // The same request written by hand with %26, as the contract shows.
    const raw = await listAll<Group>(sandbox.baseUrl, token, "webhook-groups", `fields=id,name&search=id>=${pivot}%26name!=*endswith*1`);
    expect(ids(raw)).toEqual(ids(expected));
    expect(ids(await searchGroups(`id>=${pivot}&name!=*endswith*1`, "&searchCondition=and"))).toEqual(ids(expected));
  });

  it("combines with OR under searchCondition=or", async () => {
    const expected = events.filter((e) => e.status === "draft" || e.start_date < "2025-03-01");
    expect(ids(await searchEvents("status=draft&start_date<2025-03-01", "&searchCondition=or"))).toEqual(ids(expected));
  });

  it("search, sort and paging work together", async () => {
    const matching = groups.filter((g) => g.name.toLowerCase().includes("s"));
    const sorted = [...matching].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? 1 : a.name.toLowerCase() > b.name.toLowerCase() ? -1 : a.id - b.id));
    const response = await list(sandbox.baseUrl, token, "webhook-groups", `fields=id,name&search=${encodeURIComponent("name=*contains*s")}&sort=-name&per-page=7&page=2`);
    const body = (await response.json()) as { items: Group[]; _meta: Record<string, number> };
    expect(body._meta.totalCount).toBe(matching.length);
    expect(ids(body.items)).toEqual(ids(sorted.slice(7, 14)));
  });
});

describe("bad searches are a 400 with a precise message", () => {
  it("malformed conditions", async () => {
    await badSearch(
      "webhook-groups",
      "name=*within*x",
      'Malformed search condition "name=*within*x": "*within*" is not an operator; use *contains*, *beginswith*, *endswith* or *in*.',
    );
    await badSearch(
      "webhook-groups",
      "name!=*has*x",
      'Malformed search condition "name!=*has*x": "*has*" is not an operator; use *contains*, *beginswith*, *endswith* or *in*.',
    );
    await badSearch("webhook-groups", "name", 'Malformed search condition "name": expected <field><operator><value>, e.g. name=*contains*summit.');
    await badSearch("webhook-groups", "=summit", 'Malformed search condition "=summit": expected <field><operator><value>, e.g. name=*contains*summit.');
    await badSearch("webhook-groups", "name~summit", 'Malformed search condition "name~summit": expected <field><operator><value>, e.g. name=*contains*summit.');
    await badSearch("webhook-groups", "name=*contains*", 'Malformed search condition "name=*contains*": "=*contains*" needs a value.');
    await badSearch("webhook-groups", "id>1&", "Malformed search: an empty condition (check for a doubled or trailing &).");
  });

  it("unknown fields and operators that do not fit the field's type", async () => {
    await badSearch("webhook-groups", "colour=red", 'Unknown search field "colour" for webhook groups. Searchable fields: id, name.');
    await badSearch("webhook-groups", "headers=*contains*x", 'Unknown search field "headers" for webhook groups. Searchable fields: id, name.');
    await badSearch(
      "events",
      "timezone=UTC",
      'Unknown search field "timezone" for events. Searchable fields: id, name, status, start_date, end_date, created_at, updated_at.',
    );
    await badSearch("webhook-groups", "id=*contains*5", 'Operator "=*contains*" does not apply to the number field "id". Use one of: = != > < >= <= =*in* !=*in*.');
    await badSearch("events", "id!=*beginswith*5", 'Operator "!=*beginswith*" does not apply to the number field "id". Use one of: = != > < >= <= =*in* !=*in*.');
  });

  it("values that do not fit the field's type", async () => {
    await badSearch("webhook-groups", "id>abc", 'Search value "abc" for id must be an integer.');
    await badSearch("webhook-groups", "id=1.5", 'Search value "1.5" for id must be an integer.');
    await badSearch("events", "start_date>=2026/01/01", 'Search value "2026/01/01" for start_date must be a date YYYY-MM-DD.');
    await badSearch("events", "created_at<yesterday", 'Search value "yesterday" for created_at must be a date YYYY-MM-DD or YYYY-MM-DD HH:MM:SS.');
  });

  it("a bad searchCondition", async () => {
    await expectError(await list(sandbox.baseUrl, token, "events", "search=status%3Dlive&searchCondition=xor"), 400, 'searchCondition must be "and" or "or"; got "xor".');
  });
});

describe("search on a larger dataset", () => {
  it("finds exactly what a row-by-row scan finds, for Latin-1 and wider needles alike", async () => {
    const large = await startSandboxServer({ accounts: [{ key: "large", secret: "large-secret", groups: 3000, events: 0, seed: 31 }] });
    try {
      await large.admin.setRateLimit({ credits: 1_000_000 });
      const largeToken = await tokenFor(large.baseUrl, { consumerKey: "large", consumerSecret: "large-secret" });
      const all = await listAll<Group>(large.baseUrl, largeToken, "webhook-groups", "fields=id,name");
      expect(all).toHaveLength(3000);
      for (const needle of ["sync", "ZÜRICH", "東京", "🎉", "#3000", "e", "q3 #1", "no-such-text"]) {
        const expected = all.filter((g) => g.name.toLowerCase().includes(needle.toLowerCase()));
        const found = await listAll<Group>(large.baseUrl, largeToken, "webhook-groups", `fields=id,name&search=${encodeURIComponent(`name=*contains*${needle}`)}`);
        expect(ids(found), needle).toEqual(ids(expected));
        const negated = await listAll<Group>(
          large.baseUrl,
          largeToken,
          "webhook-groups",
          `fields=id,name&search=${encodeURIComponent(`name!=*contains*${needle}`)}&sort=-name`,
        );
        expect(negated.length, needle).toBe(3000 - expected.length);
      }
    } finally {
      await large.close();
    }
  });
});
