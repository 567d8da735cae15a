/**
 * The sandbox's notion of "now". An admin-set offset shifts it so clients can be tested against a
 * server whose clock is ahead or behind theirs (the Date header, expires_at and token expiry all move).
 */
export class SandboxClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  setOffsetSeconds(seconds: number): void {
    this.offsetMs = Math.round(seconds * 1000);
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `YYYY-MM-DD HH:MM:SS` in UTC, the production service's timestamp format. */
export function formatEmsTimestamp(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The Date header only changes once a second; caching it saves a toUTCString per response. */
let cachedDateSecond = -1;
let cachedDateHeader = "";
export function httpDate(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== cachedDateSecond) {
    cachedDateSecond = second;
    cachedDateHeader = new Date(second * 1000).toUTCString();
  }
  return cachedDateHeader;
}
