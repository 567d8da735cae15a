import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether an Authorization header is `Bearer <secret>`, compared in constant time: SHA-256 of both,
 * then timingSafeEqual, so neither the content nor the length of the secret leaks through timing.
 * Used by the cron routes (CRON_SECRET) and the metrics route (METRICS_TOKEN).
 */
export function bearerTokenMatches(authorization: string | null, secret: string): boolean {
  const match = /^Bearer (.+)$/.exec(authorization ?? "");
  if (!match) return false;
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(match[1]!), digest(secret));
}
