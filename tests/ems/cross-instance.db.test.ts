import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { ensureEmsTestEnv } from "./support/env";

/**
 * Two portal processes sharing one real PostgreSQL: 100 concurrent listings between them cause
 * exactly one token request (one process holds the token lease, the other waits for the token it
 * stores), and a third process starting cold reuses the stored token. A process that dies holding
 * the lease delays the others by the lease's length, no more. Runs on both database projects.
 */

ensureEmsTestEnv();

type Instance = { child: ChildProcessWithoutNullStreams; ready: Promise<void>; result: Promise<{ ok: number; errors: string[] }>; logs: string[] };

function startInstance(baseUrl: string, calls: number, options: { leaseMs?: number } = {}): Instance {
  const args = ["--conditions=react-server", "--import", "tsx", "tests/ems/support/instance.ts"];
  if (options.leaseMs) args.push(`--lease-ms=${options.leaseMs}`);
  const child = spawn(process.execPath, args, {
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

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > giveUpAt) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function tokenSources(instance: Instance): string[] {
  return instance.logs
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { event?: string; source?: string })
    .filter((entry) => entry.event === "ems.token")
    .map((entry) => entry.source ?? "");
}

describe("two portal processes on one PostgreSQL", () => {
  let sandbox: StartedSandbox;

  beforeAll(async () => {
    sandbox = await startAllowedSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it("100 concurrent calls spread over two processes cause exactly one token request", { timeout: 90_000 }, async () => {
    const instances = [startInstance(sandbox.baseUrl, 50), startInstance(sandbox.baseUrl, 50)];
    await Promise.all(instances.map((instance) => instance.ready));
    // The token answer takes 1.5 s, so whichever process claims the lease first still holds it
    // when the other one looks: that one must wait and find the token in the database.
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
    // One process asked the token endpoint; the other waited while the lease was held and then
    // found the token in the database: on a later look, or (when the holder stored the token and
    // gave the lease back between that process's look and its claim) on claiming the free lease.
    const sources = instances.flatMap(tokenSources).sort();
    expect(sources).toHaveLength(2);
    expect(sources[1]).toBe("token_endpoint");
    expect(["database_after_wait", "database_after_claim"]).toContain(sources[0]);

    // A third process starting cold reuses the stored token.
    const late = startInstance(sandbox.baseUrl, 10);
    await late.ready;
    late.child.stdin.write("go\n");
    expect(await late.result).toEqual({ ok: 10, errors: [] });
    expect(tokenSources(late)).toEqual(["database"]);
    expect((await sandbox.admin.stats()).tokenRequests).toBe(1);
  });

  it("a process killed while holding the lease delays the other by the lease, then the other asks itself", { timeout: 60_000 }, async () => {
    // Its own sandbox: a credential (base URL) no earlier test has a token for.
    const own = await startAllowedSandbox();
    const LEASE_MS = 3_000;
    const holder = startInstance(own.baseUrl, 1, { leaseMs: LEASE_MS });
    const survivor = startInstance(own.baseUrl, 5, { leaseMs: LEASE_MS });
    try {
      holder.result.catch(() => undefined); // it is killed before it reports
      await Promise.all([holder.ready, survivor.ready]);
      await own.admin.injectFaults({ count: 1, delayMs: 10_000, paths: "token" });

      const started = Date.now();
      holder.child.stdin.write("go\n");
      await until(async () => (await own.admin.stats()).tokenRequests === 1);
      survivor.child.stdin.write("go\n");
      // Let the survivor find the lease taken, then kill the holder in the middle of its request.
      await new Promise((resolve) => setTimeout(resolve, 300));
      holder.child.kill("SIGKILL");

      expect(await survivor.result).toEqual({ ok: 5, errors: [] });
      const elapsed = Date.now() - started;
      // The holder claimed after `started`, so its lease cannot have run out before this ...
      expect(elapsed).toBeGreaterThanOrEqual(LEASE_MS - 50);
      // ... and the survivor took over soon after it did.
      expect(elapsed).toBeLessThan(LEASE_MS + 4_000);
      expect((await own.admin.stats()).tokenRequests).toBe(2);
      expect(tokenSources(survivor)).toEqual(["token_endpoint"]);
    } finally {
      for (const instance of [holder, survivor]) if (instance.child.exitCode === null) instance.child.kill("SIGKILL");
      await own.close();
    }
  });
});
