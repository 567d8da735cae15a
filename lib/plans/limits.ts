/**
 * A plan's limits, in one place: the drafting enforces them (lib/plans/draft.ts), the forms'
 * validation refuses input past them with the same numbers (lib/actions/plans), the selection stops
 * at them (lib/plans/selection.ts). Pure: the validation files import it.
 */

/** No plan holds more operations than this: 10,000 credits, five full windows of the budget. */
export const MAX_PLAN_OPERATIONS = 5_000;

/** The longest title a plan has (the forms say so; titles the portal makes from names are shortened to it). */
export const PLAN_TITLE_MAX = 200;
