import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

// scripts/standalone/json-output.cjs, loaded first by the standalone server, in a real Node process:
// whatever else writes to stdout and stderr (Next's banner, its console.error of an error with its
// stack, terminal colours, a line written in pieces) comes out as JSON lines, and JSON lines (the
// portal's, pino's) pass as they are. e2e/json-logs.spec.ts checks the production server itself.
const MODULE = path.resolve("scripts/standalone/json-output.cjs");

function run(script: string, env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ["--require", MODULE, "-e", script], {
    env: { PATH: process.env.PATH, NODE_ENV: "production", ...env },
    encoding: "utf8",
  });
  const lines = (text: string) => text.split("\n").filter(Boolean);
  return { stdout: lines(result.stdout), stderr: lines(result.stderr), status: result.status };
}

const parse = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the standalone server's JSON output", () => {
  it("turns Next's banner and any plain line into one JSON object each, and leaves JSON lines as they are", () => {
    const { stdout, stderr, status } = run(`
      console.log("   \\u001b[1m\\u001b[35m▲ Next.js 16.4.0\\u001b[39m\\u001b[22m");
      console.log("   - Local:        http://localhost:3000");
      console.log("");
      console.log(" \\u001b[32m\\u001b[1m✓\\u001b[22m\\u001b[39m Ready in 120ms");
      process.stdout.write('{"level":"info","event":"jobs.started","msg":"job engine started"}\\n');
      process.stdout.write("written in ");
      process.stdout.write("pieces\\n");
      console.warn(" ⚠ a warning");
    `);
    expect(status).toBe(0);
    expect(parse(stdout)).toEqual([
      expect.objectContaining({ level: "info", event: "next.output", msg: "▲ Next.js 16.4.0" }),
      expect.objectContaining({ level: "info", event: "next.output", msg: "- Local:        http://localhost:3000" }),
      expect.objectContaining({ level: "info", event: "next.output", msg: "✓ Ready in 120ms" }),
      { level: "info", event: "jobs.started", msg: "job engine started" },
      expect.objectContaining({ level: "info", event: "next.output", msg: "written in pieces" }),
    ]);
    expect(String(parse(stdout)[0]!.time)).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(parse(stderr)).toEqual([expect.objectContaining({ level: "warn", event: "next.output", msg: "⚠ a warning" })]);
  });

  it("makes an error printed with its stack one line, without the stack", () => {
    const { stderr } = run(`
      const error = new TypeError("boom");
      error.digest = "1234567";
      console.error(" \\u001b[31m⨯\\u001b[39m", error);
    `);
    expect(stderr).toHaveLength(1);
    const [entry] = parse(stderr);
    expect(entry).toEqual(expect.objectContaining({ level: "error", event: "next.output", msg: "⨯ TypeError: boom" }));
    expect(String(entry!.detail)).toContain("digest: '1234567'");
    expect(stderr[0]).not.toMatch(/\bat |\[eval\]/);
  });

  it("drops an inspected field that may hold a secret (a pg client's secretKey, a password)", () => {
    const { stderr } = run(`
      const error = Object.assign(new Error("idle client died"), { client: { processID: 77, secretKey: 123456789, password: "hunter2" } });
      console.error(error);
    `);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toContain("idle client died");
    expect(stderr[0]).not.toMatch(/123456789|hunter2/);
  });

  it("does not print an error that instrumentation.ts logs (Next prints it just before), and prints the others", () => {
    const { stderr } = run(`
      const error = new Error("logged by onRequestError");
      console.error(" ⨯", error);
      setImmediate(() => globalThis[Symbol.for("ems-portal.errors-logged-by-instrumentation")].add(error));
      console.error(" ⨯", new Error("nobody logs this one"));
      setTimeout(() => process.exit(0), 500);
    `);
    expect(parse(stderr).map((entry) => entry.msg)).toEqual(["⨯ Error: nobody logs this one"]);
  });

  it("still prints a held-back error when the process exits at once", () => {
    const { stderr } = run(`console.error("Failed to start server"); console.error(new Error("EADDRINUSE")); process.exit(1);`);
    expect(parse(stderr).map((entry) => entry.msg)).toEqual(["Failed to start server", "Error: EADDRINUSE"]);
  });

  it("honours LOG_LEVEL, and leaves the output alone with LOG_FORMAT=pretty", () => {
    expect(run(`console.log("▲ Next.js"); console.error("⨯ bad");`, { LOG_LEVEL: "warn" }).stdout).toEqual([]);
    expect(run(`console.log("▲ Next.js")`, { LOG_FORMAT: "pretty" }).stdout).toEqual(["▲ Next.js"]);
  });
});
