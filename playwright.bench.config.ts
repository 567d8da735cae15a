import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run bench:navigation`: browser measurements against a production build with the e2e server
 * (embedded PostgreSQL, the built-in sandbox), one worker so that nothing else competes, no retries.
 * The lister is signed in by e2e/roles.setup.ts as in the suite.
 */
export default defineConfig({
  ...base,
  testDir: "./bench/browser",
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  projects: [
    { name: "setup", testDir: "./e2e", testMatch: /roles\.setup\.ts/ },
    { name: "measure", testMatch: /\.measure\.ts$/, dependencies: ["setup"], use: base.projects?.[1]?.use },
  ],
});
