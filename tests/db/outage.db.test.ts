// The database outage as the app sees it (lib/db/outage.ts, lib/db/prisma.ts), against a real
// PostgreSQL of this file's own that it stops and starts: the pool notes the outage by itself, no
// round trip is spent while the database answers, connection failures (and only they) become the
// SafeError forms and routes show, and the probe finds the database again soon after its return.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { asDatabaseUnavailable, databaseAnswersNow, databaseSuspectSince, DatabaseUnavailableError } from "@/lib/db/outage";
import { DATABASE_UNAVAILABLE_DIGEST, DATABASE_UNAVAILABLE_MESSAGE } from "@/lib/http/outage-page";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/scripts/db/embedded-postgres";

type Holder = { emsPrisma?: { $disconnect(): Promise<void> } };
const holder = globalThis as unknown as Holder;

const parent = fs.mkdtempSync(path.join(os.tmpdir(), "ems-outage-test-"));
// As root the server runs as the `postgres` user: it must reach the directory.
fs.chmodSync(parent, 0o755);
const dataDir = path.join(parent, "data");
const savedUrl = process.env.DATABASE_URL;
let db: EmbeddedPostgres | null = null;
let port = 0;

async function reset(url: string | undefined) {
  await holder.emsPrisma?.$disconnect();
  holder.emsPrisma = undefined;
  process.env.DATABASE_URL = url;
}

beforeAll(async () => {
  db = await startEmbeddedPostgres({ dataDir, port: 0 });
  port = Number(new URL(db.url).port);
  await reset(db.url);
});

afterAll(async () => {
  await reset(savedUrl);
  await db?.stop();
  fs.rmSync(parent, { recursive: true, force: true });
});

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => expect.unreachable("the query should have failed"),
    (error: unknown) => error,
  );
}

describe("a database outage", () => {
  it("is noted by the pool, answered as DatabaseUnavailableError, and over soon after the database is back", { timeout: 60_000 }, async () => {
    // Up: nothing suspected, and the proxy's question costs nothing.
    await prisma.$queryRaw`SELECT 1`;
    expect(databaseSuspectSince()).toBeNull();
    expect(await databaseAnswersNow()).toBe(true);
    // An error of the query itself is no outage.
    const division = await failureOf(() => prisma.$queryRaw`SELECT 1 / 0`);
    expect(asDatabaseUnavailable(division)).toBeNull();
    expect(databaseSuspectSince()).toBeNull();
    // (The failed query's connection was closed; the pool keeps one open once it has been used again.)
    await prisma.$queryRaw`SELECT 1`;

    // Down: the idle connection the server ends is enough to suspect it, before any query fails.
    await db!.stop();
    db = null;
    await expect.poll(() => databaseSuspectSince(), { timeout: 5_000 }).not.toBeNull();
    expect(await databaseAnswersNow()).toBe(false);
    for (const work of [() => prisma.user.count(), () => prisma.$queryRaw`SELECT 1`, () => prisma.$transaction(async (tx) => tx.user.count())]) {
      const unavailable = asDatabaseUnavailable(await failureOf(work));
      expect(unavailable).toBeInstanceOf(DatabaseUnavailableError);
      expect(unavailable?.message).toBe(DATABASE_UNAVAILABLE_MESSAGE);
      expect(unavailable?.digest).toBe(DATABASE_UNAVAILABLE_DIGEST);
    }

    // Back: the probe finds it within about a second, and queries work again.
    db = await startEmbeddedPostgres({ dataDir, port });
    const back = Date.now();
    await expect.poll(() => databaseAnswersNow(), { timeout: 5_000, interval: 50 }).toBe(true);
    expect(Date.now() - back).toBeLessThan(2_000);
    expect(databaseSuspectSince()).toBeNull();
    expect(await prisma.$queryRaw`SELECT 1 AS ok`).toEqual([{ ok: 1 }]);
  });
});
