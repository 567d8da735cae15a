import "server-only";
import { prisma } from "@/lib/db/prisma";
import { emsLog } from "./log";
import { ems } from "./state";

/** The rate-limit figures of the last answer for one credential (docs/ems-api.md §5). */
export type RateLimit = { limit: number; remaining: number; resetAt: Date };

function headerInt(headers: Headers, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || !/^\s*-?\d+(\.\d+)?\s*$/.test(raw)) return null;
  return Math.floor(Number(raw));
}

/**
 * Reads `X-Rate-Limit-Limit`, `-Remaining` and `-Reset` (seconds until the window resets; a value
 * that looks like an epoch timestamp is taken as one). Null when the answer did not carry them.
 */
export function parseRateLimit(headers: Headers, receivedAt: number): RateLimit | null {
  const limit = headerInt(headers, "x-rate-limit-limit");
  const remaining = headerInt(headers, "x-rate-limit-remaining");
  const reset = headerInt(headers, "x-rate-limit-reset");
  if (limit === null || remaining === null || reset === null) return null;
  const resetAt = reset > 1_000_000_000 ? new Date(reset * 1000) : new Date(receivedAt + Math.max(0, reset) * 1000);
  return { limit, remaining: Math.max(0, remaining), resetAt };
}

/** Seconds to wait after a 429: `Retry-After` (seconds or HTTP date), else `X-Rate-Limit-Reset`, else 60. */
export function retryAfterSeconds(headers: Headers, receivedAt: number): number {
  const retryAfter = headers.get("retry-after");
  if (retryAfter !== null) {
    if (/^\s*\d+(\.\d+)?\s*$/.test(retryAfter)) return Math.max(1, Math.ceil(Number(retryAfter)));
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(1, Math.ceil((date - receivedAt) / 1000));
  }
  const rateLimit = parseRateLimit(headers, receivedAt);
  if (rateLimit) return Math.max(1, Math.ceil((rateLimit.resetAt.getTime() - receivedAt) / 1000));
  return 60;
}

const PERSIST_INTERVAL_MS = 1000;

/**
 * Keeps the figures of the newest answer in memory and writes them to EmsTokenCache, at most once
 * a second per credential (the last figures always land: a trailing write is scheduled), so that
 * a page render never waits for this write.
 */
export function recordRateLimit(fingerprint: string, rateLimit: RateLimit, observedAt: number): void {
  const current = ems.rateLimits.get(fingerprint);
  if (current && current.observedAt > observedAt) return;
  ems.rateLimits.set(fingerprint, { ...rateLimit, observedAt });
  schedulePersist(fingerprint);
}

/** The newest figures this process has seen for a credential. */
export function currentRateLimit(fingerprint: string): RateLimit | null {
  const current = ems.rateLimits.get(fingerprint);
  return current ? { limit: current.limit, remaining: current.remaining, resetAt: current.resetAt } : null;
}

function schedulePersist(fingerprint: string): void {
  const writer = ems.rateLimitWriters.get(fingerprint) ?? { lastWriteAt: 0, timer: null, dirty: false };
  ems.rateLimitWriters.set(fingerprint, writer);
  writer.dirty = true;
  if (writer.timer) return;
  const delay = Math.max(0, writer.lastWriteAt + PERSIST_INTERVAL_MS - Date.now());
  writer.timer = setTimeout(() => persistNow(fingerprint), delay);
  writer.timer.unref?.();
}

function persistNow(fingerprint: string): Promise<void> {
  const writer = ems.rateLimitWriters.get(fingerprint);
  const figures = ems.rateLimits.get(fingerprint);
  if (!writer || !figures) return Promise.resolve();
  if (writer.timer) clearTimeout(writer.timer);
  writer.timer = null;
  if (!writer.dirty) return Promise.resolve();
  writer.dirty = false;
  writer.lastWriteAt = Date.now();
  // One write at a time per credential, each with the newest figures when it starts: two writes in
  // flight on two connections could commit in either order, and an older figure would win.
  const write = (writer.inFlight ?? Promise.resolve()).then(() => {
    const newest = ems.rateLimits.get(fingerprint) ?? figures;
    const data = { rateLimitLimit: newest.limit, rateLimitRemaining: newest.remaining, rateLimitResetAt: newest.resetAt };
    return prisma.emsTokenCache.upsert({ where: { fingerprint }, create: { fingerprint, ...data }, update: data }).then(
      () => undefined,
      (error: unknown) => {
        emsLog("warn", "ems.rate_limit_persist_failed", { fingerprint: fingerprint.slice(0, 12), errorName: error instanceof Error ? error.name : "Error" });
      },
    );
  });
  writer.inFlight = write;
  ems.pendingWrites.add(write);
  void write.finally(() => ems.pendingWrites.delete(write));
  return write;
}

/** Writes every pending rate-limit figure now and waits for all writes (tests, scripts, shutdown). */
export async function flushRateLimits(): Promise<void> {
  for (const fingerprint of ems.rateLimitWriters.keys()) void persistNow(fingerprint);
  await Promise.all([...ems.pendingWrites]);
}
