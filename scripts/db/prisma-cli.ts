import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** The Prisma CLI's entry point, run with this Node directly (npx would add ~0.5 s per command). */
export const PRISMA_CLI = require.resolve("prisma/build/index.js");

export type PrismaRunOptions = {
  /** Extra environment for the command, e.g. DATABASE_URL / SHADOW_DATABASE_URL. */
  env?: Record<string, string | undefined>;
  /** "inherit" shows the CLI's output (and its prompts); "pipe" captures it. */
  stdio?: "inherit" | "pipe";
  cwd?: string;
};

export type PrismaRunResult = { code: number; stdout: string; stderr: string };

/** Runs `prisma ARGS…` and resolves with its exit code (never rejects on a non-zero exit). */
export function runPrisma(args: string[], options: PrismaRunOptions = {}): Promise<PrismaRunResult> {
  const stdio = options.stdio ?? "inherit";
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PRISMA_CLI, ...args], {
      cwd: options.cwd,
      env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1", ...options.env },
      stdio: stdio === "inherit" ? "inherit" : ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), stdout, stderr }));
  });
}
