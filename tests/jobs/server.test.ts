// When a server process runs the job engine (lib/jobs/server.ts).
import { describe, expect, it } from "vitest";
import { shouldRunJobEngine } from "@/lib/jobs/server";

describe("shouldRunJobEngine", () => {
  it("runs on a Node host by default, and never during next build", () => {
    expect(shouldRunJobEngine({ VERCEL: false, NODE_ENV: "production" }, undefined)).toBe(true);
    expect(shouldRunJobEngine({ VERCEL: false, NODE_ENV: "development" }, "phase-development-server")).toBe(true);
    expect(shouldRunJobEngine({ VERCEL: false, NODE_ENV: "production" }, "phase-production-build")).toBe(false);
    expect(shouldRunJobEngine({ JOBS_ENABLED: true, VERCEL: false, NODE_ENV: "production" }, "phase-production-build")).toBe(false);
  });

  it("does not run on Vercel or under the tests unless asked, and JOBS_ENABLED=false turns it off anywhere", () => {
    expect(shouldRunJobEngine({ VERCEL: true, NODE_ENV: "production" }, undefined)).toBe(false);
    expect(shouldRunJobEngine({ VERCEL: false, NODE_ENV: "test" }, undefined)).toBe(false);
    expect(shouldRunJobEngine({ JOBS_ENABLED: true, VERCEL: false, NODE_ENV: "test" }, undefined)).toBe(true);
    expect(shouldRunJobEngine({ JOBS_ENABLED: false, VERCEL: false, NODE_ENV: "production" }, undefined)).toBe(false);
  });
});
