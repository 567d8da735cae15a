/**
 * Serialized rows, cached per table and projection (fields + expansions). A table's data never
 * changes (an edit makes new tables: data/edited-accounts.ts), so a row's JSON for one projection is
 * computed once: a page becomes a join of ready strings instead of building and stringifying
 * objects on every request.
 */
const MAX_PROJECTIONS_PER_TABLE = 8;
const caches = new WeakMap<object, Map<string, (string | undefined)[]>>();

export function rowJsonCache(table: object, projectionKey: string, size: number): (string | undefined)[] {
  let byProjection = caches.get(table);
  if (!byProjection) {
    byProjection = new Map();
    caches.set(table, byProjection);
  }
  let rows = byProjection.get(projectionKey);
  if (!rows) {
    if (byProjection.size >= MAX_PROJECTIONS_PER_TABLE) byProjection.delete(byProjection.keys().next().value!);
    rows = new Array(size);
    byProjection.set(projectionKey, rows);
  }
  return rows;
}
