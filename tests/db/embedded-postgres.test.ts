// The embedded PostgreSQL (scripts/db/embedded-postgres.ts) on a temporary data directory:
// data survives a restart, one process owns a directory, and clients take turns on its connection.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  EmbeddedDatabaseLockedError,
  lockFilePath,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from "@/scripts/db/embedded-postgres";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ems-embedded-test-"));
const running: EmbeddedPostgres[] = [];

async function start() {
  const db = await startEmbeddedPostgres({ dataDir, port: 0 });
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
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(lockFilePath(dataDir), { force: true });
});

describe("embedded PostgreSQL", () => {
  it("keeps its data across a restart", { timeout: 60_000 }, async () => {
    const first = await start();
    await query(first.url, "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    await first.stop();
    expect(fs.existsSync(lockFilePath(dataDir))).toBe(false);

    const second = await start();
    expect(await query(second.url, "SELECT note FROM kept")).toEqual([{ note: "still here" }]);
    await second.stop();
  });

  it("refuses a second opener of the same data directory, naming the owner", { timeout: 60_000 }, async () => {
    const owner = await start();
    const attempt = startEmbeddedPostgres({ dataDir, port: 0 });
    await expect(attempt).rejects.toBeInstanceOf(EmbeddedDatabaseLockedError);
    await expect(attempt).rejects.toThrow(`already open in process ${process.pid}`);
    // The owner is unaffected.
    expect(await query(owner.url, "SELECT count(*)::int AS n FROM kept")).toEqual([{ n: 1 }]);
    await owner.stop();
  });

  it("takes over a stale lock left by a process that is gone", { timeout: 60_000 }, async () => {
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    fs.writeFileSync(lockFilePath(dataDir), JSON.stringify({ pid: Number(gone), url: "", shadowUrl: "", startedAt: "" }));
    const db = await start();
    expect(JSON.parse(fs.readFileSync(lockFilePath(dataDir), "utf8"))).toMatchObject({ pid: process.pid, url: db.url });
    await db.stop();
  });

  it("lets a second client wait for the one connection instead of cutting it off", { timeout: 60_000 }, async () => {
    const db = await start();
    const first = new pg.Client({ connectionString: db.url });
    await first.connect();
    await first.query("BEGIN; INSERT INTO kept VALUES ('first')");

    const second = new pg.Client({ connectionString: db.url });
    let secondConnected = false;
    const secondReady = second.connect().then(() => (secondConnected = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondConnected).toBe(false);

    await first.query("COMMIT");
    await first.end();
    await secondReady;
    const rows = await second.query("SELECT note FROM kept ORDER BY note");
    expect(rows.rows.map((row) => row.note)).toEqual(["first", "still here"]);
    await second.end();
    await db.stop();
  });
});
