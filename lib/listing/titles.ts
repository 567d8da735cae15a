/**
 * What each listing page is called: its heading, and its name wherever a saved view or an audit
 * entry mentions it. A module of its own, free of the contract's schemas, so that the browser's
 * command palette can name the pages too.
 */
export const LISTING_TITLES = { "webhook-groups": "Webhook groups", events: "Events", webhooks: "Webhooks" } as const;

/** A listing page's title, or undefined for a page that is not one (e.g. a value from the database). */
export function listingTitle(page: string): string | undefined {
  return Object.hasOwn(LISTING_TITLES, page) ? LISTING_TITLES[page as keyof typeof LISTING_TITLES] : undefined;
}
