import fs from "node:fs";
import { createRequire } from "node:module";
import { toolingEnv } from "../lib/config/env-schema";

// The headless shell first: the suite runs headless, and Chromium's full browser in its "new"
// headless mode costs about twice the CPU per test (measured: 103 s against 182 s for the auth and
// teams specs on two cores), which on a two-core CI machine is most of the end-to-end time.
const SYSTEM_CANDIDATES = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

export const HOW_TO_GET_CHROMIUM =
  "No Chromium found: set CHROMIUM_PATH, or install one (Debian/Ubuntu: `sudo apt-get install -y chromium-headless-shell`; elsewhere: `npx playwright install chromium`).";

/**
 * The browser for end-to-end tests: CHROMIUM_PATH, else the system's Chromium headless shell,
 * Chromium or Chrome, else Playwright's own download. Null when there is none. (`--headed` needs a
 * full browser: CHROMIUM_PATH=/usr/bin/chromium.)
 */
export function findChromium(): string | null {
  const fromEnv = toolingEnv().CHROMIUM_PATH;
  if (fromEnv) return fs.existsSync(fromEnv) ? fromEnv : null;
  for (const candidate of SYSTEM_CANDIDATES) if (fs.existsSync(candidate)) return candidate;
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require("playwright-core") as typeof import("playwright-core");
    const bundled = chromium.executablePath();
    if (bundled && fs.existsSync(bundled)) return bundled;
  } catch {
    // playwright-core missing or its browser registry unreadable: no bundled browser then.
  }
  return null;
}
