/**
 * The sizes of saved views that the browser needs too (no zod, no server-only: the tabs and the
 * "More" list import them). How many views a person or a team may keep is configuration
 * (VIEWS_MAX_PER_PERSON, VIEWS_MAX_PER_TEAM: lib/views/caps.ts).
 */

/**
 * The longest options a view stores, as its canonical query string. A listing address may be longer
 * (20 filters of 200 characters), but a view is shown on every teammate's page (its link, and its
 * options in words), so what it may carry is bounded; what the toolbar makes in normal use is a few
 * hundred characters.
 */
export const MAX_VIEW_QUERY_LENGTH = 2_000;

/** The tabs above a listing: the person's favourites, then their most used views, at most this many; the rest are under "More". */
export const VIEW_TABS_SHOWN = 8;

/**
 * Views a /views page lists. Each row is a small form per action (they work without JavaScript),
 * about 17 kB of HTML and RSC payload with long options: 25 keep a page near 450 kB.
 */
export const VIEWS_PER_PAGE = 25;

/** Views one answer of the "More" list carries ("Show more" asks for the next ones). */
export const MORE_VIEWS_PER_REQUEST = 20;

/** The longest search text of the "More" list. */
export const MORE_VIEWS_SEARCH_MAX = 80;

export const VIEW_QUERY_TOO_LONG = `These options are too long to save as a view (at most ${MAX_VIEW_QUERY_LENGTH.toLocaleString("en-US")} characters): remove some filters or ids first.`;
