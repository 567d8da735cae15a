/**
 * The palette's limits, shared by the route's validation and the palette in the browser. A module
 * of its own, without zod: zod probes `new Function` when it loads, which the page's policy reports.
 */

/** The shortest name part the palette searches for: one letter would match nearly every group. */
export const GROUP_SEARCH_MIN = 2;
