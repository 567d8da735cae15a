import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { Debug } from "@prisma/client/runtime/client";
import { afterEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
// @ts-expect-error: plain JavaScript on purpose (npm install runs it, before any TypeScript tool may be there), so it has no types.
import { patchedRuntime } from "@/scripts/db/prisma-runtime-patch.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** The heap a new client holds, its module already loaded: the first client a process makes (the portal makes one). */
const MEASURE_NEW_CLIENT = `
const { PrismaClient } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, "lib/generated/prisma/client.ts")).href)});
const { PrismaPg } = await import("@prisma/adapter-pg");
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
const before = heap();
const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: "postgresql://unused.invalid/none" }) });
console.log(JSON.stringify({ held: heap() - before }));
void client;
`;

/**
 * scripts/db/prisma-runtime-patch.mjs (run by `npm install`): Prisma's client keeps its
 * parameterization graph's edges in Maps, not in objects whose integer keys V8 stored as arrays
 * full of holes (9.9 of the 11.1 MB a client held), and the graph still parameterizes queries.
 */
describe("Prisma's runtime, as npm install patches it", () => {
  afterEach(() => {
    Debug.disable();
  });

  it("is patched in node_modules (both module formats)", () => {
    const runtimeDir = path.dirname(createRequire(import.meta.url).resolve("@prisma/client/runtime/client"));
    for (const name of ["client.js", "client.mjs"]) {
      const text = fs.readFileSync(path.join(runtimeDir, name), "utf8");
      // Patching a patched runtime changes nothing; an unpatched one would change.
      expect((patchedRuntime(text, name) as string) === text, `${name} is patched`).toBe(true);
    }
  });

  it("refuses a runtime whose text it does not know, rather than leave it unpatched", () => {
    expect(() => patchedRuntime("a runtime of another version", "client.js")).toThrow(/Prisma's runtime changed/);
  });

  it("holds a new client's parameterization graph in a few megabytes of heap, not eleven", () => {
    // Measured in a process of its own: forcing collections (gc) inside vitest's worker thread, beside
    // other tests' WebAssembly query compilers, once crashed V8 ("Check failed: jit_page_->allocations_").
    const measured = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", MEASURE_NEW_CLIENT], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(measured.status, measured.stderr).toBe(0);
    const { held } = JSON.parse(measured.stdout.trim().split("\n").at(-1)!) as { held: number };
    // Unpatched: 11.1 MB, 9.9 MB of it the edges' holes. Patched: about 2 MB.
    expect(held / 1e6).toBeLessThan(5);
  });

  it("still parameterizes a query: the same query with other values reuses its plan", async () => {
    const said: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void said.push(args.map(String).join(" "));
    try {
      // Each shape once first (its plan is compiled and cached), then with other values.
      Debug.enable("prisma:client:clientEngine");
      const read = (email: string, name: string) =>
        prisma.user.findFirst({
          where: { email, name: { contains: name } },
          select: { id: true, views: { where: { name: { startsWith: name } }, select: { id: true } } },
        });
      await read("first@example.com", "first");
      said.length = 0;
      await read("second@example.com", "second");
      await read("third@example.com", "third");
    } finally {
      Debug.disable();
      console.warn = warn;
    }
    const plans = said.filter((line) => line.includes("query plan cache"));
    expect(plans).toHaveLength(2);
    expect(plans.every((line) => line.includes("query plan cache hit"))).toBe(true);
  });
});
