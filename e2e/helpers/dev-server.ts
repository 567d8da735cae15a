import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "dotenv";
import { E2E_DEV_PORTS } from "./config";
import { freePortIn } from "./free-port";

/**
 * `npm run dev` exactly as the README tells a newcomer to run it (scripts/dev.ts, then `next dev`),
 * for e2e/readme-dev.spec.ts, with nothing of a developer's own setup in it and nothing left behind:
 * - a fresh embedded PostgreSQL in a temporary directory (EMBEDDED_DATA_DIR), never .data/postgres;
 * - fresh secrets in the environment, so scripts/dev.ts has none to generate and leaves .env.local alone;
 * - every key of the developer's own env files passed blank, so that neither scripts/dev.ts nor Next.js
 *   takes it from the file (both let a variable that is set win, and the portal reads blank as unset):
 *   a DATABASE_URL there would otherwise point this check at the developer's database;
 * - free ports for the portal and its database from E2E_DEV_PORTS.
 * One thing it shares: `next dev`'s build directory (.next/dev), as every `next dev` of the project
 * does, so a developer's own `npm run dev` in the same folder makes this one stop ("Another next dev
 * server is already running"), which the output then says.
 */
export interface DevServer {
  baseUrl: string;
  /** Everything scripts/dev.ts and Next.js printed so far, colours removed. */
  output(): string;
  /** Ctrl+C, as in a terminal: Next.js stops, then scripts/dev.ts stops the database; the directory goes. */
  stop(): Promise<void>;
}

/** The env files `next dev` reads (and scripts/dev.ts reads the last two of). */
const DEVELOPER_ENV_FILES = [".env.development.local", ".env.local", ".env.development", ".env"];

function blankedDeveloperEnv(): Record<string, string> {
  const blank: Record<string, string> = {};
  for (const file of DEVELOPER_ENV_FILES) {
    if (!fs.existsSync(file)) continue;
    for (const key of Object.keys(parse(fs.readFileSync(file)))) blank[key] = "";
  }
  return blank;
}

/** What scripts/dev.ts generates into .env.local on a first run, made here instead. */
function freshSecrets(): Record<string, string> {
  return {
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    CREDENTIAL_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    SANDBOX_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_ADMIN_SECRET: randomBytes(32).toString("base64url"),
    EMS_FINGERPRINT_SECRET: randomBytes(32).toString("base64url"),
  };
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

function waitForReady(child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`\`npm run dev\` printed no "Ready" within ${timeoutMs / 1000} s`)), timeoutMs);
    const poll = setInterval(() => {
      if (/✓ Ready in/.test(output())) finish();
    }, 100);
    const onExit = (code: number | null) => finish(new Error(`\`npm run dev\` exited (code ${code}) before Next.js was ready`));
    child.once("exit", onExit);
    function finish(error?: Error) {
      clearTimeout(timer);
      clearInterval(poll);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve();
    }
  });
}

export async function startDevServer(): Promise<DevServer> {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "ems-readme-dev-"));
  // As root, PostgreSQL runs as its own `postgres` user (scripts/db/embedded-postgres.ts): it must pass through.
  fs.chmodSync(parent, 0o755);
  const port = await freePortIn(E2E_DEV_PORTS);
  const databasePort = await freePortIn(E2E_DEV_PORTS, [port]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...blankedDeveloperEnv(),
    // What `next dev` sets; another value inherited from the test runner would make Next.js warn.
    NODE_ENV: "development",
    ...freshSecrets(),
    PORT: String(port),
    EMBEDDED_DATA_DIR: path.join(parent, "postgres"),
    EMBEDDED_DATABASE_PORT: String(databasePort),
    // Blank, not absent: scripts/dev.ts then starts the embedded database, and no env file can name another.
    DATABASE_URL: "",
  };

  let output = "";
  // Its own process group, so that stop() can interrupt npm, scripts/dev.ts and Next.js together, as Ctrl+C does.
  const child = spawn(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "dev"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const keep = (chunk: Buffer) => (output += chunk.toString().replace(ANSI, ""));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const signalAll = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error; // ESRCH: every process of the group has ended
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      signalAll("SIGINT");
      const killer = setTimeout(() => signalAll("SIGKILL"), 20_000);
      await exited;
      clearTimeout(killer);
    }
    fs.rmSync(parent, { recursive: true, force: true });
    // The route types `next dev` wrote, which tsconfig.json includes: left behind, they would outlive a
    // page deleted before the next `npm test`, whose type check runs before this test and would fail on
    // them. Every `next dev` writes them again on start.
    fs.rmSync(path.join(".next", "dev", "types"), { recursive: true, force: true });
  };

  try {
    // The database's first initdb, the migrations and Next.js's start: seconds, more on a busy machine.
    await waitForReady(child, () => output, 120_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { baseUrl: `http://localhost:${port}`, output: () => output, stop };
}
