import { defineConfig, devices } from "@playwright/test";
import { findChromium, HOW_TO_GET_CHROMIUM } from "./scripts/find-chromium";
import { E2E_BASE_URL } from "./e2e/helpers/config";

const executablePath = findChromium();
const LONGEST = /(readme-dev|instance-kill)\.spec\.ts$/;
if (!executablePath) {
  console.error(HOW_TO_GET_CHROMIUM);
  process.exit(1);
}

export default defineConfig({
  testDir: "./e2e",
  // Tests, not files, are spread over the workers (a spec's tests are independent; faults.spec.ts
  // runs serially by its own configuration). Three workers on two cores: most of a test's time
  // is spent waiting on the server, the sandbox or the database, not on the CPU.
  fullyParallel: true,
  workers: 3,
  retries: process.env.CI ? 1 : 0,
  // The slowest tests (several browsers, argon2 sign-ins) take about a minute beside two other
  // workers on two cores; twice that leaves room for a slower machine.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  outputDir: process.env.E2E_OUTPUT_DIR || "test-results",
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: E2E_BASE_URL,
    // On the retry only: recording a trace (a screencast of every frame) costs a third more CPU
    // per test, and a failure that does not repeat on retry is reported as flaky anyway.
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    // A navigation or click that hangs (seen once: a sign-in redirect that never answered) fails
    // after this long and is retried, instead of holding its worker to the test's 2-minute limit.
    navigationTimeout: 45_000,
    actionTimeout: 30_000,
    launchOptions: {
      executablePath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  // The longest tests (a dev server's first compiles, two servers waiting out a lease: two to four
  // minutes each) are a project of their own, listed first: Playwright queues a phase's tests in the
  // order of its projects, so these start at once on two workers while the rest spread over the
  // third and then all three. Queued in file order among the others, they started last and the run
  // waited about four minutes on one of them alone.
  projects: [
    { name: "setup", testMatch: /.*\.setup\.ts/ },
    { name: "longest", testMatch: LONGEST, use: { ...devices["Desktop Chrome"] }, dependencies: ["setup"] },
    { name: "chromium", testIgnore: LONGEST, use: { ...devices["Desktop Chrome"] }, dependencies: ["setup"] },
  ],
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: "npx tsx scripts/e2e-server.ts",
        url: `${E2E_BASE_URL}/api/health`,
        reuseExistingServer: !process.env.CI,
        timeout: 120_000,
        stdout: "pipe",
        stderr: "pipe",
      },
});
