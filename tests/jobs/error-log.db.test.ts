// The job engine's `jobs.error` line when a connection of its pool dies (lib/jobs/engine.ts logs
// pg-boss's "error" events): pg-pool hangs the whole `pg` client on such an error (`err.client`),
// and pino's default serializer used to copy it into the line: about 3 kB, with the backend's
// processID and secretKey (PostgreSQL's cancel key). lib/log.ts's serializeError keeps the error's
// class, code and message only. Real engine, real PostgreSQL, a real pg_terminate_backend.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, describe, expect, inject, it, vi } from "vitest";
import { startJobEngine, type JobEngine } from "@/lib/jobs/engine";
import { log } from "@/lib/log";
import "../setup/provided";

let engine: JobEngine | null = null;
afterAll(async () => {
  await engine?.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
  log.level = "silent";
});

describe("the job engine's error line", () => {
  it("names the error's class, code and message, and never carries the pg client (no processID, no secretKey)", async () => {
    const url = inject("databaseUrl");
    const schema = `pgboss_errlog_${randomBytes(4).toString("hex")}`;
    engine = await startJobEngine({ connectionString: url, jobs: [], schema, poolMax: 2, intervals: { cronMonitor: 1, cronWorker: 1 } });

    const lines: string[] = [];
    log.level = "error";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      return true;
    });

    // End the engine's idle connections as an operator (or a failover) would: pg-pool reports each
    // as an "error" with the client attached, and pg-boss passes it on.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const deadline = Date.now() + 15_000;
      while (!lines.some((line) => line.includes('"jobs.error"'))) {
        if (Date.now() > deadline) throw new Error(`no jobs.error line within 15 s; lines: ${lines.join("\n")}`);
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'ems-portal-jobs' AND state = 'idle' AND query LIKE $1 AND pid <> pg_backend_pid()`,
          [`%${schema}%`],
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await admin.end();
    }

    const line = lines.find((candidate) => candidate.includes('"jobs.error"'))!;
    const entry = JSON.parse(line) as { event: string; err: Record<string, unknown> };
    expect(line).not.toMatch(/secretKey|processID|client|stack/i);
    expect(Buffer.byteLength(line)).toBeLessThan(400);
    expect(Object.keys(entry.err).sort()).toEqual(["code", "message", "type"]);
    // "terminating connection due to administrator command", PostgreSQL's 57P01.
    expect(entry.err).toEqual({ type: "DatabaseError", code: "57P01", message: expect.stringMatching(/terminating connection due to administrator command/) });
  });
});
