import { UAParser } from "ua-parser-js";

/**
 * A browser's User-Agent header in words, for the sessions page: "Firefox 128 on macOS",
 * "Safari 17 on iOS (iPhone)", "Edge 126 on Windows 10". ua-parser-js 1.x (MIT; 2.x is AGPL)
 * reads the header; this module only chooses the words. The header is whatever the client sent:
 * it is never trusted, only described, and a header that says nothing known reads "Unknown browser".
 */

/** ua-parser-js's names, where people know the thing by another one. */
const BROWSER_NAMES: Record<string, string> = {
  "Mobile Safari": "Safari",
  "Chrome Headless": "Headless Chrome",
  "Chrome WebView": "Android WebView",
  "Mobile Firefox": "Firefox",
};
const OS_NAMES: Record<string, string> = { "Mac OS": "macOS", "Chromium OS": "ChromeOS" };
/** Systems whose version in the header means something (macOS's is frozen at 10.15). */
const VERSIONED_OS = new Set(["Windows", "iOS", "Android", "iPadOS"]);

export interface UserAgentDescription {
  /** "Firefox 128 on macOS" */
  summary: string;
  /** "mobile", "tablet" or "desktop": for the icon. */
  kind: "mobile" | "tablet" | "desktop";
}

const MAX_HEADER = 1024;

export function describeUserAgent(header: string | null | undefined): UserAgentDescription {
  const text = (header ?? "").slice(0, MAX_HEADER);
  const { browser, os, device } = new UAParser(text).getResult();
  const kind = device.type === "mobile" ? "mobile" : device.type === "tablet" ? "tablet" : "desktop";
  const browserName = browser.name ? (BROWSER_NAMES[browser.name] ?? browser.name) : null;
  const browserWords = browserName ? [browserName, browser.major].filter(Boolean).join(" ") : null;
  const osName = os.name ? (OS_NAMES[os.name] ?? os.name) : null;
  const osVersion = osName && VERSIONED_OS.has(osName) && os.version ? (osName === "Windows" ? os.version : os.version.split(".")[0]) : null;
  const osWords = osName ? [osName, osVersion].filter(Boolean).join(" ") : null;
  const model = (kind === "mobile" || kind === "tablet") && device.model ? device.model : null;
  const system = osWords ? `${osWords}${model ? ` (${model})` : ""}` : model;
  if (browserWords && system) return { summary: `${browserWords} on ${system}`, kind };
  if (browserWords) return { summary: browserWords, kind };
  if (system) return { summary: `Unknown browser on ${system}`, kind };
  return { summary: "Unknown browser", kind };
}
