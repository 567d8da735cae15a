// The webhooks list's and a webhook page's data functions, with the sandbox's two accounts over real
// HTTP and a real database: rows come with their group's name and health findings; a webhook of the
// other account is "not found"; a page never holds a header value.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { flushEmsState, type Webhook } from "@/lib/ems";
import { loadHealthReport } from "@/lib/health/report";
import { loadListingPage } from "@/lib/listing-page/page-data";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import type { StartedSandbox } from "@/lib/sandbox/testing";
import { webhookFiring } from "@/lib/setup/webhook-status";
import { loadWebhookAt, loadWebhookPage } from "@/lib/webhooks/page";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { createTeam } from "../teams/fixtures";

let sandbox: StartedSandbox;
let demo: Actor;
let demoHooks: Webhook[];
let otherHooks: Webhook[];

async function hooksOf(actor: Actor): Promise<Webhook[]> {
  const client = (await getEmsClientForActor(actor))!;
  return (await client.listWebhooks({ perPage: 200 })).items;
}

beforeAll(async () => {
  sandbox = await startAllowedSandbox();
  demo = await createTeam();
  await saveCredential(demo, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
  const other = await createTeam();
  await saveCredential(other, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS });
  [demoHooks, otherHooks] = await Promise.all([hooksOf(demo), hooksOf(other)]);
});
afterAll(async () => {
  await flushEmsState();
  await sandbox?.close();
});

describe("the webhooks list", () => {
  it("gives 20 rows with their groups' names and the findings the health report has about them", async () => {
    const page = await loadListingPage(demo, "webhooks", {});
    const results = await page.results;
    if (results.kind !== "ok") throw new Error(`the listing failed: ${results.failure.kind}`);
    expect(results.items.map((item) => item.id)).toEqual(demoHooks.slice(0, 20).map((hook) => hook.id));
    const context = results.webhookContext!;
    const report = await loadHealthReport(demo);
    if (report.kind !== "ok") throw new Error("no health report");
    for (const item of results.items) {
      const group = report.snapshot.data.groups.find((candidate) => candidate.id === item.group_id)!;
      expect(context.groupNames!.get(Number(item.group_id))).toBe(group.name);
      const about = report.active.filter((finding) => finding.subjects.some((subject) => subject.kind === "webhook" && subject.id === item.id));
      const counts = context.findings!.get(Number(item.id));
      expect((counts?.errors ?? 0) + (counts?.warnings ?? 0) + (counts?.notices ?? 0)).toBe(about.length);
    }
    // The demo account has findings about some webhook on the first page (e.g. plain HTTP URLs).
    expect([...context.findings!.keys()].length).toBeGreaterThan(0);
  });

  it("filters by host through the listing language", async () => {
    const host = new URL(demoHooks[0].url!).host;
    const page = await loadListingPage(demo, "webhooks", { filter: `url=*contains*${host}`, "per-page": "200" });
    const results = await page.results;
    if (results.kind !== "ok") throw new Error("the listing failed");
    expect(results.items.length).toBeGreaterThan(0);
    expect(results.items.every((item) => String(item.url).includes(host))).toBe(true);
    const client = (await getEmsClientForActor(demo))!;
    const direct = await client.listWebhooks({ search: [{ field: "url", operator: "=*contains*", value: host }], perPage: 200 });
    expect(results.meta.totalCount).toBe(direct.meta.totalCount);
    expect(results.meta.totalCount).toBeLessThan((await client.listWebhooks({ perPage: 1 })).meta.totalCount);
  });
});

describe("a webhook's page", () => {
  it("holds the webhook with header names only, its group and its events", async () => {
    const hook = demoHooks.find((candidate) => (candidate.headers ?? []).length > 0 && candidate.group_id)!;
    expect(hook).toBeTruthy();
    const data = await loadWebhookPage(demo, hook.id);
    if (data.kind !== "ok") throw new Error(`the page failed: ${data.kind}`);
    expect(data.webhook.headers).toEqual(hook.headers!.map((header) => ({ key: header.key })));
    expect(JSON.stringify(data.webhook.headers)).not.toContain(`"value"`);
    for (const header of hook.headers!) if (header.value.length >= 6) expect(JSON.stringify(data.webhook)).not.toContain(header.value);
    const around = await data.surroundings;
    if (!("events" in around)) throw new Error("no setup");
    expect(around.groupName).toBeTruthy();
    const expected = hook.any_event ? "all" : (hook.event_ids ?? []).length;
    expect(expected === "all" ? around.events.length > 0 : around.events.length + around.unknownEventIds.length === expected).toBe(true);
    // A webhook that cannot fire fills no cell... and one that may fills its object's cells.
    if (webhookFiring(hook).state === "enabled" && around.events.length > 0)
      expect(around.events[0].cells.every((cell) => cell.startsWith(`${hook.trigger_object}:`))).toBe(true);
  });

  it("answers not found for another account's webhook and for none", async () => {
    const mine = new Set(demoHooks.map((hook) => hook.id));
    const theirs = otherHooks.find((hook) => !mine.has(hook.id));
    expect(theirs).toBeTruthy();
    expect((await loadWebhookPage(demo, theirs!.id)).kind).toBe("not-found");
    expect((await loadWebhookPage(demo, 999_999_999)).kind).toBe("not-found");
  });

  it("reads the webhook a route's id segment names, and answers not found for a segment that is not an id", async () => {
    const hook = demoHooks[0];
    const data = await loadWebhookAt(demo, String(hook.id));
    expect(data.kind === "ok" ? data.webhook.id : data.kind).toBe(hook.id);
    for (const segment of ["abc", "-1", "1.5", "", `${hook.id}x`]) expect((await loadWebhookAt(demo, segment)).kind, segment).toBe("not-found");
  });
});
