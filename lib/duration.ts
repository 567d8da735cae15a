import { plural } from "@/lib/text/plural";
/**
 * A wait in words for a person: "1 second", "45 seconds", "2 minutes" (rounded up from 90 seconds
 * on). The one way the portal says how long to wait: rate limits, sign-in throttling.
 */
export function formatSeconds(seconds: number): string {
  if (seconds < 90) return plural(seconds, "second");
  return `${Math.ceil(seconds / 60)} minutes`;
}
