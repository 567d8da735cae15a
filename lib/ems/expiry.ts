import "server-only";
import { MAX_TOKEN_LIFETIME_MS, renewBeforeMs } from "./config";
import type { CachedToken } from "./state";

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Parses the token's `expires_at`: the production form `YYYY-MM-DD HH:MM:SS` (UTC, no zone), and
 * ISO 8601 with `Z` or an offset (`2026-11-21T16:04:40+02:00`). A value without a zone is UTC.
 * Returns null for anything else, including impossible dates (2026-02-30).
 */
export function parseExpiresAt(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const match = TIMESTAMP.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const millis = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(utc);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  ) {
    return null;
  }
  let offsetMinutes = 0;
  if (zone && /^[+-]/.test(zone)) {
    const digits = zone.slice(1).replace(":", "");
    const hours = Number(digits.slice(0, 2));
    const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (hours > 23 || minutes > 59) return null;
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (hours * 60 + minutes);
  }
  return new Date(utc - offsetMinutes * 60_000);
}

/** The `Date` header (IMF-fixdate), or null when absent or unreadable. */
export function parseDateHeader(value: string | null | undefined): Date | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time) : null;
}

/**
 * When a freshly issued token expires, on this machine's clock (epoch ms).
 *
 * The server's remaining lifetime is `expires_at - Date` (both on the server's clock, so any skew
 * between the clocks cancels out); it started at the latest when we sent the request. The `Date`
 * header has one-second resolution, hence the extra second off. Without a usable `Date` header,
 * `expires_at` is taken as it is. Never later than 30 minutes after the request was sent.
 */
export function computeTokenExpiry(input: { expiresAt: Date | null; serverDate: Date | null; requestSentAt: number }): number {
  const cap = input.requestSentAt + MAX_TOKEN_LIFETIME_MS;
  if (!input.expiresAt) return cap;
  const local = input.serverDate ? input.requestSentAt + (input.expiresAt.getTime() - input.serverDate.getTime()) - 1000 : input.expiresAt.getTime();
  return Math.min(local, cap);
}

/**
 * Fresh enough to use: more than the renewal margin left. The margin is at most half of the
 * token's own lifetime, so short-lived tokens are still used (and renewed at half-life).
 */
export function isFresh(token: Pick<CachedToken, "expiresAt" | "obtainedAt">, now = Date.now()): boolean {
  const lifetime = token.expiresAt - token.obtainedAt;
  const margin = Math.min(renewBeforeMs(), Math.max(0, lifetime) / 2);
  return token.expiresAt - now > margin;
}
