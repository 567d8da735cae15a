/**
 * The builds the benches that drive production servers start from: the portal through
 * `npm run build` (the project's own build, which also puts the static files into .next/standalone,
 * so `npm start` afterwards serves a complete portal) and the floor app (bench/floor-app) with `next build`.
 */
import path from "node:path";
import { spawnSync } from "node:child_process";
import { NPM, ROOT } from "./portal-stack";

export const FLOOR_DIR = path.join(ROOT, "bench", "floor-app");
export const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

/** Runs a build to completion (its errors are shown); `command` is e.g. ["npm", "run", "build"]. */
export function build(label: string, [command, ...args]: [string, ...string[]]): void {
  console.log(`Building ${label} (${[path.basename(command), ...args].join(" ")})…`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`${[path.basename(command), ...args].join(" ")} failed`);
  console.log(`  built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

export function buildPortalAndFloor(): void {
  build("the portal", [NPM, "run", "--silent", "build"]);
  build("the floor app", [process.execPath, NEXT_BIN, "build", FLOOR_DIR]);
}
