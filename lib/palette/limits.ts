/**
 * The palette's limits, shared by the route's validation and the palette in the browser. A module
 * of its own, without zod: zod probes `new Function` when it loads, which the page's policy reports.
 */

/** The shortest text the palette searches records for: one letter would match nearly everything. */
export const RECORD_SEARCH_MIN = 2;
/** The longest: a whole webhook URL fits; the EMS takes 200 characters per search value. */
export const RECORD_SEARCH_MAX = 200;
