// The schedule of change history (lib/history/schedule.ts) as two instances run it: both look at the
// same tick at once, and each due tracker syncs exactly once; a tracker that is not due is left
// alone; the Vercel cron route runs the same tick only with CRON_SECRET.
import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/cron/history/route";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { syncDueTrackers } from "@/lib/history/schedule";
import { startTracking } from "@/lib/history/trackers";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { createTeam } from "@/tests/teams/fixtures";
import { historyTestPortal } from "./support";
import { withOwnDatabase } from "../setup/db";

// A tick syncs every due tracker of the database: on the shared one it would sync other files'.
withOwnDatabase();

const portal = historyTestPortal();
afterEach(() => {
  delete process.env.CRON_SECRET;
});

async function dueTrackers(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: portal().baseUrl, ...DEMO_CREDENTIALS });
    ids.push((await startTracking(owner, { intervalMinutes: 15 })).id);
  }
  return ids;
}

const syncsOf = async (ids: string[]) => {
  const rows = await prisma.setupSync.groupBy({ by: ["trackerId"], where: { trackerId: { in: ids } }, _count: true });
  return Object.fromEntries(ids.map((id) => [id, rows.find((row) => row.trackerId === id)?._count ?? 0]));
};

describe("syncDueTrackers", () => {
  it("two instances working the same tick at once: every due tracker syncs exactly once, then none is due", async () => {
    const ids = await dueTrackers(4);
    const [first, second] = await Promise.all([syncDueTrackers(), syncDueTrackers()]);
    expect(first.synced + second.synced).toBe(4);
    expect(await syncsOf(ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
    expect((await syncDueTrackers()).due).toBe(0);
  });

  it("the cron route runs the tick only with CRON_SECRET as its bearer token", async () => {
    const [id] = await dueTrackers(1);
    const call = (authorization?: string) => GET(new Request("http://portal.test/api/cron/history", { headers: authorization ? { authorization } : {} }));
    expect((await call()).status).toBe(503);
    process.env.CRON_SECRET = "cron-secret-for-the-tests-0123456789";
    expect((await call("Bearer wrong-secret-0123456789")).status).toBe(401);
    expect(await syncsOf([id!])).toEqual({ [id!]: 0 });
    const response = await call("Bearer cron-secret-for-the-tests-0123456789");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ job: "history-sync", result: { synced: 1, byStatus: { ok: 1 } } });
    expect(await syncsOf([id!])).toEqual({ [id!]: 1 });
  });
});
