// The embedded PostgreSQL (scripts/db/embedded-postgres.ts): a real server on a data directory
// that survives a restart, many connections at once, a running server reused instead of a second
// one started on the same directory, and an ephemeral directory removed on stop.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { runningServer } from "@/lib/config/embedded-database";
import { EPHEMERAL, makeDataDir, startEmbeddedPostgres, type EmbeddedPostgres } from "@/scripts/db/embedded-postgres";

const parent = fs.mkdtempSync(path.join(os.tmpdir(), "ems-embedded-test-"));
// The server runs as the `postgres` user when the tests run as root: it must reach the directory.
fs.chmodSync(parent, 0o755);
const dataDir = path.join(parent, "data");
const running: EmbeddedPostgres[] = [];

async function start(dir = dataDir) {
  const db = await startEmbeddedPostgres({ dataDir: dir, port: 0 });
  running.push(db);
  return db;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const db of running) await db.stop();
  fs.rmSync(parent, { recursive: true, force: true });
});

describe("embedded PostgreSQL", () => {
  it("keeps its data across a restart", { timeout: 90_000 }, async () => {
    const first = await start();
    expect(first.owned).toBe(true);
    await query(first.url, "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    await first.stop();
    expect(runningServer(dataDir)).toBeNull();

    const second = await start();
    expect(await query(second.url, "SELECT note FROM kept")).toEqual([{ note: "still here" }]);
    await second.stop();
  });

  it("serves many connections at once, each in its own backend", { timeout: 90_000 }, async () => {
    const db = await start();
    const pool = new pg.Pool({ connectionString: db.url, max: 20 });
    pool.on("error", () => {}); // an idle connection ended by the server's shutdown is no failure here
    try {
      // pg_sleep keeps each connection busy, so 20 queries in flight need 20 connections.
      const rows = await Promise.all(Array.from({ length: 20 }, () => pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid, pg_sleep(0.2)")));
      expect(new Set(rows.map((result) => result.rows[0]!.pid)).size).toBe(20);
    } finally {
      await pool.end();
      await db.stop();
    }
  });

  it("reuses a server already running on the directory instead of starting a second one", { timeout: 90_000 }, async () => {
    const owner = await start();
    const again = await start();
    expect(again.owned).toBe(false);
    expect(again.url).toBe(owner.url);
    await again.stop(); // not ours to stop
    expect(await query(owner.url, "SELECT count(*)::int AS n FROM kept")).toEqual([{ n: 1 }]);
    await owner.stop();
  });

  it("never takes another server on the port it chose for its own (two started at the same moment)", { timeout: 90_000 }, async () => {
    const first = await startEmbeddedPostgres({ dataDir: EPHEMERAL, port: 0 });
    running.push(first);
    const port = Number(new URL(first.url).port);
    // The second cannot bind the port; the first answers on it, and must not pass for the second.
    await expect(startEmbeddedPostgres({ dataDir: EPHEMERAL, port })).rejects.toThrow(/did not start/);
    await first.stop();
  });

  it("starts in a data directory whose parents do not exist yet (`.data/postgres` of a fresh clone)", { timeout: 90_000 }, async () => {
    // The directory as initdb gets it (a server started here may copy a template instead).
    const made = path.join(parent, "made", "postgres");
    makeDataDir(made, undefined);
    // Anyone may pass through the parent it made (the server runs as `postgres` under root); only
    // the data directory is private.
    expect(fs.statSync(path.dirname(made)).mode & 0o777).toBe(0o777 & ~process.umask());
    expect(fs.statSync(made).mode & 0o777).toBe(0o700);

    const nested = path.join(parent, "fresh", "postgres");
    const db = await start(nested);
    expect(fs.existsSync(path.join(nested, "PG_VERSION"))).toBe(true);
    await db.stop();
  });

  it("removes an ephemeral data directory when it stops", { timeout: 90_000 }, async () => {
    const db = await start(EPHEMERAL);
    expect(fs.existsSync(path.join(db.dataDir, "PG_VERSION"))).toBe(true);
    await db.stop();
    expect(fs.existsSync(db.dataDir)).toBe(false);
  });
});
