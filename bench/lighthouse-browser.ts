/**
 * The browser bench:lighthouse drives: the machine's Chromium (scripts/find-chromium.ts, as the e2e
 * tests find it) started with a DevTools port for Lighthouse to connect to, and the signed-in
 * person's cookies put into it over the DevTools protocol. As a browser, not as an extra request
 * header: Lighthouse keeps cookies between runs (it clears caches and storage, not cookies), the
 * static files then go without them as they would, and `document.cookie` sees the time zone cookie,
 * so the page is the returning visitor's (components/ui/time-zone-cookie.tsx refreshes a first visit once).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startService, waitForOutput, type Service } from "./processes";
import { findChromium, HOW_TO_GET_CHROMIUM } from "../scripts/find-chromium";

export interface LighthouseBrowser {
  /** The DevTools port Lighthouse connects to. */
  port: number;
  setCookies(origin: string, cookieHeader: string, extra: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

export async function startLighthouseBrowser(): Promise<LighthouseBrowser & { executable: string }> {
  const executable = findChromium();
  if (!executable) throw new Error(HOW_TO_GET_CHROMIUM);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "bench-lighthouse-"));
  const browser: Service = startService(
    "chromium",
    executable,
    [
      "--headless=new",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "about:blank",
    ],
    // The page's time zone, and so the `tz` cookie the portal gets, is the same on every machine.
    { env: { ...process.env, TZ: "UTC" } },
  );
  const [, endpoint] = await waitForOutput(browser, /DevTools listening on (ws:\/\/\S+)/, 30_000);
  const port = Number(new URL(endpoint).port);
  return {
    executable,
    port,
    setCookies: (origin, cookieHeader, extra) => setBrowserCookies(endpoint, origin, cookieHeader, extra),
    async close() {
      await browser.stop();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** `Storage.setCookies` on the browser's own DevTools connection: the session's cookies (HttpOnly, as the portal sets them) and `extra` (readable by scripts). */
async function setBrowserCookies(endpoint: string, origin: string, cookieHeader: string, extra: Record<string, string>): Promise<void> {
  const { hostname } = new URL(origin);
  const pairs = cookieHeader.split(/;\s*/).filter(Boolean);
  const cookies = [
    ...pairs.map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: hostname, path: "/", httpOnly: true, sameSite: "Lax" };
    }),
    ...Object.entries(extra).map(([name, value]) => ({ name, value, domain: hostname, path: "/", httpOnly: false, sameSite: "Lax" })),
  ];
  const socket = new WebSocket(endpoint);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error(`could not open the browser's DevTools connection at ${endpoint}`)), { once: true });
  });
  try {
    const answer = new Promise<{ error?: { message: string } }>((resolve) =>
      socket.addEventListener("message", (event) => resolve(JSON.parse(String(event.data)) as { error?: { message: string } }), { once: true }),
    );
    socket.send(JSON.stringify({ id: 1, method: "Storage.setCookies", params: { cookies } }));
    const { error } = await answer;
    if (error) throw new Error(`Storage.setCookies: ${error.message}`);
  } finally {
    socket.close();
  }
}
