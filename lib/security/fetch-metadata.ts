/**
 * Where a request came from, as the browser says it (Fetch Metadata, `Sec-Fetch-Site`): a top-level
 * navigation from another site carries the session cookie (SameSite=Lax) without the person having
 * asked this portal for anything. A page or route that spends the team's EMS credits on a GET (a
 * whole selection read, a palette search) does not spend them for such a request without a click
 * here first (issue 35: eight crafted links emptied a 2,000-credit window for everyone on the key).
 * Browsers that send no such header (old ones, scripts with their own cookie) are not refused.
 */
export function fromAnotherSite(headers: Pick<Headers, "get">): boolean {
  return headers.get("sec-fetch-site") === "cross-site";
}
