/**
 * The rules for an EMS base URL (api-contract §1): a scheme and host with an optional path prefix;
 * HTTPS required except for loopback hosts (the sandbox). Pure: used by the zod schema of the
 * settings form and again by the data function that stores it.
 */
// The same three hosts as the EMS client's normalizeBaseUrl (lib/ems/credentials.ts).
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; message: string };

/** Validates and normalises (no trailing slash) a base URL; the message says what to fix. */
export function checkBaseUrl(input: string): BaseUrlCheck {
  const value = input.trim();
  if (!value) return { ok: false, message: "Enter the base URL of your EMS API, e.g. https://api.example.com." };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, message: "That is not a URL. It should look like https://api.example.com." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, message: "The base URL must start with https://." };
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return { ok: false, message: "The base URL must use HTTPS (http:// is only allowed for localhost)." };
  }
  if (url.username || url.password) {
    return { ok: false, message: "Leave the user name and password out of the URL; enter the key and secret below." };
  }
  if (url.search || url.hash) {
    return { ok: false, message: "The base URL cannot have a query (?…) or fragment (#…)." };
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/api\/v1$/.test(path)) {
    return { ok: false, message: "Leave out /api/v1: enter only the part before it, e.g. https://api.example.com." };
  }
  return { ok: true, baseUrl: `${url.protocol}//${url.host}${path}` };
}
