import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSandboxServer, type StartedSandbox } from "@/lib/sandbox/testing";
import { ensureEmsTestEnv } from "./support/env";

/**
 * Two portal processes sharing one real PostgreSQL: 100 concurrent listings between them cause
 * exactly one token request (the advisory lock plus the re-check after taking it), and a third
 * process starting cold reuses the stored token.
 *
 * Needs the db-postgres project (TEST_DATABASE_URL): the embedded PGlite takes one connection at a
 * time and cannot host two processes, so under db-embedded this test is skipped.
 */

ensureEmsTestEnv();

const kind = inject("databaseKind");
const SKIP_REASON = "skipped: needs real PostgreSQL (set TEST_DATABASE_URL); the embedded PGlite serves one connection and cannot host two processes";
const runs = kind === "postgres";

type Instance = { child: ChildProcessWithoutNullStreams; ready: Promise<void>; result: Promise<{ ok: number; errors: string[] }>; logs: string[] };

function startInstance(baseUrl: string, calls: number): Instance {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/ems/support/instance.ts"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      EMS_INSTANCE_BASE_URL: baseUrl,
      EMS_INSTANCE_CALLS: String(calls),
      LOG_LEVEL: "info",
      NODE_OPTIONS: "",
    },
  });
  const logs: string[] = [];
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let buffered = "";
  let markReady!: () => void;
  let settle!: (value: { ok: number; errors: string[] }) => void;
  let fail!: (error: Error) => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const result = new Promise<{ ok: number; errors: string[] }>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line === "READY") markReady();
      else if (line.startsWith("RESULT ")) settle(JSON.parse(line.slice(7)));
      else logs.push(line);
    }
  });
  child.on("exit", (code) => fail(new Error(`instance exited with ${code} before reporting: ${stderr.slice(-2000)}`)));
  return { child, ready, result, logs };
}

function tokenSources(instance: Instance): string[] {
  return instance.logs
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { event?: string; source?: string })
    .filter((entry) => entry.event === "ems.token")
    .map((entry) => entry.source ?? "");
}

describe(runs ? "two portal processes on one PostgreSQL" : `two portal processes on one PostgreSQL (${SKIP_REASON})`, () => {
  let sandbox: StartedSandbox;

  beforeAll(async () => {
    if (runs) sandbox = await startSandboxServer();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it.skipIf(!runs)("100 concurrent calls spread over two processes cause exactly one token request", { timeout: 90_000 }, async () => {
    const instances = [startInstance(sandbox.baseUrl, 50), startInstance(sandbox.baseUrl, 50)];
    await Promise.all(instances.map((instance) => instance.ready));
    // The token answer takes 1.5 s, so whichever process gets the lock first still holds it when
    // the other one looks: that one must wait for the lock and find the token on its re-check.
    await sandbox.admin.injectFaults({ count: 1, delayMs: 1_500, paths: "token" });
    for (const instance of instances) instance.child.stdin.write("go\n");
    const results = await Promise.all(instances.map((instance) => instance.result));

    expect(results).toEqual([
      { ok: 50, errors: [] },
      { ok: 50, errors: [] },
    ]);
    const counts = await sandbox.admin.stats();
    expect(counts.tokenRequests).toBe(1);
    expect(counts.apiRequests).toBe(100);
    // One process asked the token endpoint; the other waited for the lock and then found the
    // token in the database.
    expect(instances.flatMap(tokenSources).sort()).toEqual(["database_after_lock", "token_endpoint"]);

    // A third process starting cold reuses the stored token.
    const late = startInstance(sandbox.baseUrl, 10);
    await late.ready;
    late.child.stdin.write("go\n");
    expect(await late.result).toEqual({ ok: 10, errors: [] });
    expect(tokenSources(late)).toEqual(["database"]);
    expect((await sandbox.admin.stats()).tokenRequests).toBe(1);
  });
});
