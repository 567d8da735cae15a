/**
 * Rows of one resource for one account, with the indexes that keep listings fast on 100,000 rows:
 * an id lookup, lower-cased text columns (case-insensitive search without lower-casing per
 * request) and presorted orders per field (a single-field sort becomes a filtered walk, not a sort).
 * Indexes are built lazily, once, on first use.
 */
export type ScalarValue = string | number | boolean | null;

export class Table<Row extends { id: number }> {
  private idIndex: Map<number, number> | undefined;
  private lowerColumns = new Map<string, string[]>();
  private ranks = new Map<string, Int32Array>();
  private orders = new Map<string, Int32Array>();

  /** rows must be in ascending id order (the default sort). */
  constructor(readonly rows: readonly Row[]) {}

  get size(): number {
    return this.rows.length;
  }

  indexOfId(id: number): number | undefined {
    if (!this.idIndex) {
      this.idIndex = new Map();
      this.rows.forEach((row, index) => this.idIndex!.set(row.id, index));
    }
    return this.idIndex.get(id);
  }

  value(index: number, field: string): ScalarValue {
    return (this.rows[index] as Record<string, ScalarValue>)[field];
  }

  /** Lower-cased text of a field for every row (null stays ""). */
  lowerColumn(field: string): string[] {
    let column = this.lowerColumns.get(field);
    if (!column) {
      column = this.rows.map((row) => {
        const value = (row as Record<string, ScalarValue>)[field];
        return value === null || value === undefined ? "" : String(value).toLowerCase();
      });
      this.lowerColumns.set(field, column);
    }
    return column;
  }

  /**
   * Dense rank of every row by one field (equal values share a rank). Text compares
   * case-insensitively; null sorts first, as in MySQL.
   */
  rank(field: string): Int32Array {
    let rank = this.ranks.get(field);
    if (!rank) {
      const order = this.ascendingOrder(field);
      rank = new Int32Array(this.rows.length);
      let current = 0;
      for (let i = 0; i < order.length; i++) {
        if (i > 0 && this.compareRows(order[i - 1], order[i], field) !== 0) current++;
        rank[order[i]] = current;
      }
      this.ranks.set(field, rank);
    }
    return rank;
  }

  /** Row indexes ordered by the field, ties by ascending id; descending keeps ids ascending on ties. */
  order(field: string, descending: boolean): Int32Array {
    const key = `${descending ? "-" : "+"}${field}`;
    let order = this.orders.get(key);
    if (!order) {
      if (!descending) {
        order = this.ascendingOrder(field);
      } else {
        const rank = this.rank(field);
        order = Int32Array.from(this.ascendingOrder(field)).sort((a, b) => rank[b] - rank[a] || a - b);
      }
      this.orders.set(key, order);
    }
    return order;
  }

  private ascendingOrder(field: string): Int32Array {
    const key = `+${field}`;
    let order = this.orders.get(key);
    if (!order) {
      order = new Int32Array(this.rows.length);
      for (let i = 0; i < order.length; i++) order[i] = i;
      if (field !== "id") order.sort((a, b) => this.compareRows(a, b, field) || a - b);
      this.orders.set(key, order);
    }
    return order;
  }

  private compareRows(a: number, b: number, field: string): number {
    const left = this.value(a, field);
    const right = this.value(b, field);
    if (left === right) return 0;
    if (left === null || left === undefined) return -1;
    if (right === null || right === undefined) return 1;
    if (typeof left === "string" && typeof right === "string") {
      const column = this.lowerColumn(field);
      const l = column[a];
      const r = column[b];
      if (l !== r) return l < r ? -1 : 1;
      return left < right ? -1 : left > right ? 1 : 0;
    }
    return left < right ? -1 : left > right ? 1 : 0;
  }
}
