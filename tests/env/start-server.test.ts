// `npm start` runs the standalone server through scripts/start-server.mjs, which gives it the heap
// flags of package.json and, on Linux, MALLOC_ARENA_MAX=2 (issue 38: the resident set under load).
// A stand-in server.js in a temporary folder reports what it was started with.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const script = path.join(process.cwd(), "scripts/start-server.mjs");
const folder = mkdtempSync(path.join(os.tmpdir(), "start-server-"));
mkdirSync(path.join(folder, ".next", "standalone"), { recursive: true });
// What the server sees: its allocator setting, its Node flags, its pid and its parent's.
writeFileSync(
  path.join(folder, ".next", "standalone", "server.js"),
  "console.log(JSON.stringify({ arenas: process.env.MALLOC_ARENA_MAX ?? null, flags: process.execArgv, pid: process.pid })); process.exit(7);\n",
);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function start(env: Record<string, string | undefined>) {
  const base = { ...process.env };
  delete base.MALLOC_ARENA_MAX;
  const run = spawnSync(process.execPath, [script, "--max-old-space-size=256", "--max-semi-space-size=16"], { cwd: folder, env: { ...base, ...env }, encoding: "utf8" });
  return { status: run.status, pid: run.pid, seen: JSON.parse(run.stdout) as { arenas: string | null; flags: string[]; pid: number } };
}

describe("npm start (scripts/start-server.mjs)", () => {
  it("starts the server with package.json's heap flags and passes on its exit code", () => {
    const { status, seen } = start({});
    expect(seen.flags).toEqual(["--max-old-space-size=256", "--max-semi-space-size=16"]);
    expect(status).toBe(7);
  });

  it.runIf(process.platform === "linux")("on Linux, limits glibc to two malloc arenas unless the environment says otherwise", () => {
    expect(start({}).seen.arenas).toBe("2");
    expect(start({ MALLOC_ARENA_MAX: "4" }).seen.arenas).toBe("4");
  });

  it.runIf(process.platform !== "win32" && typeof process.execve === "function")("becomes the server: one process, the pid npm started", () => {
    const { pid, seen } = start({});
    expect(seen.pid).toBe(pid);
  });

  it("is what package.json's start script runs, with the heap flags bench:pages reads", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe("node scripts/require-node.mjs && node scripts/start-server.mjs --max-old-space-size=256 --max-semi-space-size=16");
  });
});
