/**
 * Fixed-window credit buckets per API credential (docs/ems-api.md §5: 2,000 credits per 10 minutes,
 * a listing costs 10, anything else 1). The window opens at a credential's first call. Calls refused
 * with 429 cost nothing, so a client that waits out Retry-After gets its full budget back.
 */
export type RateLimitSettings = { credits: number; windowSeconds: number };
export const DEFAULT_RATE_LIMIT: RateLimitSettings = { credits: 2000, windowSeconds: 600 };

export type RateLimitOutcome = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** whole seconds until the window resets */
  resetSeconds: number;
};

type Bucket = { windowStart: number; used: number };

export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  settings: RateLimitSettings = { ...DEFAULT_RATE_LIMIT };

  charge(bucketKey: string, cost: number, now: number = Date.now()): RateLimitOutcome {
    const windowMs = this.settings.windowSeconds * 1000;
    let bucket = this.buckets.get(bucketKey);
    if (!bucket || now - bucket.windowStart >= windowMs) {
      bucket = { windowStart: now, used: 0 };
      this.buckets.set(bucketKey, bucket);
    }
    const limit = this.settings.credits;
    const resetSeconds = Math.max(1, Math.ceil((bucket.windowStart + windowMs - now) / 1000));
    if (bucket.used + cost > limit) {
      return { allowed: false, limit, remaining: Math.max(0, limit - bucket.used), resetSeconds };
    }
    bucket.used += cost;
    return { allowed: true, limit, remaining: limit - bucket.used, resetSeconds };
  }

  /** The bucket's state without charging it (for answers that cost nothing, e.g. injected faults). */
  peek(bucketKey: string, now: number = Date.now()): RateLimitOutcome {
    const windowMs = this.settings.windowSeconds * 1000;
    const bucket = this.buckets.get(bucketKey);
    const limit = this.settings.credits;
    if (!bucket || now - bucket.windowStart >= windowMs) return { allowed: true, limit, remaining: limit, resetSeconds: this.settings.windowSeconds };
    const resetSeconds = Math.max(1, Math.ceil((bucket.windowStart + windowMs - now) / 1000));
    return { allowed: bucket.used < limit, limit, remaining: Math.max(0, limit - bucket.used), resetSeconds };
  }

  configure(settings: Partial<RateLimitSettings>): void {
    this.settings = { ...this.settings, ...settings };
    this.buckets.clear();
  }

  reset(): void {
    this.settings = { ...DEFAULT_RATE_LIMIT };
    this.buckets.clear();
  }
}

export function rateLimitHeaders(outcome: RateLimitOutcome): Record<string, string> {
  return {
    "x-rate-limit-limit": String(outcome.limit),
    "x-rate-limit-remaining": String(outcome.remaining),
    "x-rate-limit-reset": String(outcome.resetSeconds),
  };
}
