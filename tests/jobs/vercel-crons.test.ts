// vercel.json's crons and the job registry agree: every job with a cron route is declared there
// with its path and schedule and has its route file, and vercel.json calls nothing else. A job
// added to the registry with a route but not to vercel.json would never run on Vercel.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JOBS } from "@/lib/jobs/registry";

const root = path.join(import.meta.dirname, "../..");
const vercel = JSON.parse(fs.readFileSync(path.join(root, "vercel.json"), "utf8")) as { crons?: { path: string; schedule: string }[] };
const declared = vercel.crons ?? [];
const routed = JOBS.flatMap((job) => (job.cronRoute ? [{ job: job.name, ...job.cronRoute }] : []));

describe("vercel.json's crons", () => {
  it("declare every registered job's cron route, with its schedule, and the route exists", () => {
    expect(routed.length).toBeGreaterThan(0);
    for (const { job, path: route, schedule } of routed) {
      expect(declared, `${job}: ${route} in vercel.json`).toContainEqual({ path: route, schedule });
      expect(fs.existsSync(path.join(root, "app", route, "route.ts")), `${job}: app${route}/route.ts`).toBe(true);
    }
  });

  it("call only registered jobs' routes, each once", () => {
    expect(declared.map((cron) => cron.path).sort()).toEqual(routed.map((job) => job.path).sort());
  });
});
