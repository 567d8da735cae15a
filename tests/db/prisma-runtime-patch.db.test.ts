import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { PrismaPg } from "@prisma/adapter-pg";
import { Debug } from "@prisma/client/runtime/client";
import { afterEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { PrismaClient } from "@/lib/generated/prisma/client";
// @ts-expect-error: plain JavaScript on purpose (npm install runs it, before any TypeScript tool may be there), so it has no types.
import { patchedRuntime } from "@/scripts/db/prisma-runtime-patch.mjs";

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

  it("holds a new client's parameterization graph in a few megabytes of heap, not eleven", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heap();
    // The first client this process makes (the portal makes one), its constructor's code included.
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: "postgresql://unused.invalid/none" }) });
    const held = heap() - before;
    // Unpatched: 11.1 MB, 9.9 MB of it the edges' holes. Patched: about 2 MB.
    expect(held / 1e6).toBeLessThan(5);
    await client.$disconnect();
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
