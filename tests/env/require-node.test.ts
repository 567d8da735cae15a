import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript on purpose (it must run on an old Node), so it has no types.
import { MINIMUM, nodeVersionProblem } from "@/scripts/require-node.mjs";

const script = path.join(process.cwd(), "scripts/require-node.mjs");
const runAs = (version: string) => spawnSync(process.execPath, [script], { env: { ...process.env, EMS_NODE_VERSION_UNDER_TEST: version }, encoding: "utf8" });

describe("the Node.js version guard (scripts/require-node.mjs)", () => {
  it("lets 22.13 and later through, the 24 LTS and newer majors included", () => {
    for (const version of ["22.13.0", "v22.13.0", "22.20.1", "23.0.0", "24.0.0", "24.21.0", "26.1.0"]) expect(nodeVersionProblem(version), version).toBeNull();
  });

  it("stops older ones with one line naming both versions and how to install 24", () => {
    for (const version of ["22.12.0", "22.9.0", "20.20.2", "v20.9.0", "18.20.8", "0.10.48"]) {
      const problem = nodeVersionProblem(version) as string;
      expect(problem, version).toContain(`this is Node ${version.replace(/^v/, "")}.`);
      expect(problem).toMatch(/^EMS Portal needs Node\.js 22\.13 or later \(24 LTS recommended\);/);
      expect(problem).toContain("nvm install 24");
      expect(problem).not.toContain("\n");
    }
    expect(nodeVersionProblem("not a version")).toContain("this is Node not a version.");
  });

  it("exits 1 with that one line on stderr when run on an old Node, and silently 0 on a new one", () => {
    const old = runAs("20.20.2");
    expect(old.status).toBe(1);
    expect(old.stdout).toBe("");
    expect(old.stderr.trimEnd().split("\n")).toEqual([nodeVersionProblem("20.20.2")]);
    const current = runAs("24.21.0");
    expect([current.status, current.stdout, current.stderr]).toEqual([0, "", ""]);
  });

  it("agrees with package.json's engines, and runs first in dev, test and start", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string }; scripts: Record<string, string> };
    expect(pkg.engines.node.startsWith(`^${MINIMUM} ||`)).toBe(true);
    for (const name of ["dev", "test", "start"]) expect(pkg.scripts[name], name).toMatch(/^node scripts\/require-node\.mjs && /);
  });
});
