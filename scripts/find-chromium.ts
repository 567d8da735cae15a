import fs from "node:fs";
import { createRequire } from "node:module";
import { toolingEnv } from "../lib/config/env-schema";

const SYSTEM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"];

export const HOW_TO_GET_CHROMIUM =
  "No Chromium found: set CHROMIUM_PATH, or install one (Debian/Ubuntu: `sudo apt-get install -y chromium`; elsewhere: `npx playwright install chromium`).";

/**
 * The browser for end-to-end tests: CHROMIUM_PATH, else the system's Chromium or Chrome, else
 * Playwright's own download. Null when there is none.
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
