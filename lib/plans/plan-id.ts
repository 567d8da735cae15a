/**
 * A plan's id as it appears in an address (`/plans/<id>`, `?plan=<id>`): the UUID lib/plans/store.ts
 * gives every plan, lower-case; anything else names no plan (the page answers 404, a `?plan=` is
 * ignored). Pure: pages and parsers of search params use it.
 */
const PLAN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function parsePlanId(raw: string): string | null {
  return PLAN_ID.test(raw) ? raw : null;
}
