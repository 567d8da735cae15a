// The hand-off from a sync to its alert (lib/history/sync.ts -> announce.ts -> lib/alerts): a real
// sync of the sandbox's account, a real Slack-compatible receiver on loopback. The baseline sync
// queues nothing; a later sync that finds a change queues one alert and sends it at once; the send
// inside the sync stops at the job's deadline and leaves the alert to the delivery job.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { setSlackUrl } from "@/lib/alerts/settings";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { syncTracker } from "@/lib/history/sync";
import { startTracking } from "@/lib/history/trackers";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import type { Actor } from "@/lib/access/actor";
import { allowPrivateOrigin, withEnv } from "@/tests/ems/support/env";
import { createTeam } from "@/tests/teams/fixtures";
import { historyTestPortal } from "./support";

const portal = historyTestPortal();

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Receiver {
  url: string;
  texts: string[];
}

/** A Slack-compatible incoming webhook on loopback (listed in EMS_ALLOW_PRIVATE_ORIGINS): answers 200, or never. */
async function startReceiver({ answers = true } = {}): Promise<Receiver> {
  const texts: string[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      texts.push((JSON.parse(body) as { text: string }).text);
      if (answers) response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  cleanups.push(() => server.closeAllConnections());
  cleanups.push(allowPrivateOrigin(origin));
  return { url: `${origin}/services/T0001/B0001/sync-alerts`, texts };
}

async function trackedTeam(slackUrl: string): Promise<{ owner: Actor; trackerId: string }> {
  const owner = await createTeam();
  await saveCredential(owner, { baseUrl: portal().baseUrl, ...DEMO_CREDENTIALS });
  const { id } = await startTracking(owner, { intervalMinutes: 15 });
  await setSlackUrl(owner, { trackerId: id, url: slackUrl });
  return { owner, trackerId: id };
}

/** Renames the first webhook group the tracker knows, as a person in the EMS web app would. */
async function renameAGroup(trackerId: string): Promise<string> {
  const group = await prisma.trackedRecord.findFirstOrThrow({ where: { trackerId, kind: "group" }, orderBy: { recordId: "asc" } });
  const name = `Renamed ${Math.random().toString(36).slice(2, 8)}`;
  portal().sandbox.applyEdits(DEMO_CREDENTIALS.consumerKey, [{ kind: "rename-group", groupId: group.recordId, name, by: "jane@example.com" }]);
  return name;
}

describe("a sync hands its changes to the alerts", () => {
  it("the baseline queues no alert; a sync that finds a change queues exactly one, sent at once with a link to the changes; a sync without changes queues none", async () => {
    const receiver = await startReceiver();
    const { trackerId } = await trackedTeam(receiver.url);

    const baseline = await syncTracker(trackerId, { trigger: "manual", force: true });
    expect(baseline).toMatchObject({ status: "ok", baseline: true });
    expect(await prisma.alertDelivery.count({ where: { trackerId } })).toBe(0);
    expect(receiver.texts).toEqual([]);

    const name = await renameAGroup(trackerId);
    const changed = await syncTracker(trackerId, { trigger: "manual", force: true });
    expect(changed).toMatchObject({ status: "ok", baseline: false, changes: 1 });
    const deliveries = await prisma.alertDelivery.findMany({ where: { trackerId } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ syncId: changed.status === "ok" ? changed.syncId : "", channel: "slack", status: "sent", attempts: 1 });
    expect(receiver.texts).toHaveLength(1);
    expect(receiver.texts[0]).toContain(name);
    expect(receiver.texts[0]).toMatch(/\/changes\b/);

    const quiet = await syncTracker(trackerId, { trigger: "manual", force: true });
    expect(quiet).toMatchObject({ status: "ok", changes: 0 });
    expect(await prisma.alertDelivery.count({ where: { trackerId } })).toBe(1);
    expect(receiver.texts).toHaveLength(1);
  });

  it("the send inside a sync stops at the job's deadline: the sync returns, and the alert is left pending (the attempt not counted) for the delivery job", async () => {
    const receiver = await startReceiver({ answers: false });
    const { trackerId } = await trackedTeam(receiver.url);
    await syncTracker(trackerId, { trigger: "manual", force: true });
    await renameAGroup(trackerId);
    // A scheduled sync reuses pages read within EMS_COVERAGE_CACHE_SECONDS: this one reads afresh.
    cleanups.push(withEnv({ EMS_COVERAGE_CACHE_SECONDS: "0" }));

    const started = Date.now();
    const outcome = await syncTracker(trackerId, { trigger: "cron", force: true, deadline: started + 4_000 });
    const took = Date.now() - started;
    expect(outcome).toMatchObject({ status: "ok", changes: 1 });
    expect(receiver.texts).toHaveLength(1);
    // Without the deadline the send waits out its own timeout (10 s) and counts a failed attempt.
    expect(took).toBeLessThan(8_000);
    const delivery = await prisma.alertDelivery.findFirstOrThrow({ where: { trackerId } });
    expect(delivery).toMatchObject({ status: "pending", attempts: 0, lastError: null });
  });
});
