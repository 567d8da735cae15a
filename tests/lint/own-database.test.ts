// Database test files share one database and run side by side. A file that runs every due plan
// (runDuePlans, as the plan-apply job does) takes up the plans other files left approved and started
// for a moment, and moves them on under those files' assertions (seen: offers-match-server.db.test.ts
// found its "approved, started" plan failed). Such a file needs a database of its own.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ACTS_ON_EVERY_TEAM = /\brunDuePlans\(/;

const dbTestFiles = readdirSync(path.join(ROOT, "tests"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".db.test.ts"))
  .map((file) => path.posix.join("tests", file.split(path.sep).join("/")));

describe("a database test file that runs every team's due plans has a database of its own", () => {
  const running = dbTestFiles.filter((file) => ACTS_ON_EVERY_TEAM.test(readFileSync(path.join(ROOT, file), "utf8")));

  it("finds such files (the rule guards something)", () => {
    expect(running.length).toBeGreaterThan(0);
  });

  it.each(running)("%s", (file) => {
    expect(readFileSync(path.join(ROOT, file), "utf8")).toMatch(/^withOwnDatabase\(\);$/m);
  });
});
