/**
 * Rows of one resource for one account, with the indexes that keep listings fast on 100,000 rows:
 * an id lookup, lower-cased text columns (case-insensitive search without lower-casing per
 * request) and presorted orders per field (a single-field sort becomes a filtered walk, not a sort).
 * Indexes are built lazily, once, on first use.
 */
export type ScalarValue = string | number | boolean | null;

/**
 * How a table reads its data. Rows may be made on demand (100,000 webhook groups keep only ids and
 * names in memory until a row is shown), so the indexes read single values through `value`.
 */
export type TableSource<Row> = {
  size: number;
  /** a scalar field of the row at index (only fields that are searched or sorted are asked for) */
  value: (index: number, field: string) => ScalarValue;
  /** the full row at index */
  row: (index: number) => Row;
};

export function tableSourceOf<Row extends { id: number }>(rows: readonly Row[]): TableSource<Row> {
  return {
    size: rows.length,
    value: (index, field) => (rows[index] as unknown as Record<string, ScalarValue>)[field],
    row: (index) => rows[index],
  };
}

/** Separates rows in a haystack; names never hold it, so a needle holding it simply finds nothing. */
export const HAYSTACK_SEPARATOR = "\u0000";

export type Haystack = {
  text: string;
  /** offset in `text` where the i-th row of this haystack starts */
  starts: Int32Array;
  /** table row index of the i-th row of this haystack */
  rows: Int32Array;
  /** every character is at most U+00FF */
  latin1: boolean;
};

export function isLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

function buildHaystack(column: readonly string[], rows: readonly number[], latin1: boolean): Haystack {
  const starts = new Int32Array(rows.length);
  const parts: string[] = new Array(rows.length);
  let offset = 0;
  rows.forEach((row, i) => {
    starts[i] = offset;
    parts[i] = column[row];
    offset += column[row].length + 1;
  });
  return { text: parts.join(HAYSTACK_SEPARATOR), starts, rows: Int32Array.from(rows), latin1 };
}

export class Table<Row extends { id: number }> {
  private idIndex: Map<number, number> | undefined;
  private lowerColumns = new Map<string, string[]>();
  private haystackCache = new Map<string, Haystack[]>();
  private trigramCache = new Map<string, Map<string, Int32Array>>();
  private ranks = new Map<string, Int32Array>();
  private orders = new Map<string, Int32Array>();

  /** rows must be in ascending id order (the default sort). */
  constructor(private readonly source: TableSource<Row>) {}

  get size(): number {
    return this.source.size;
  }

  row(index: number): Row {
    return this.source.row(index);
  }

  value(index: number, field: string): ScalarValue {
    return this.source.value(index, field);
  }

  indexOfId(id: number): number | undefined {
    if (!this.idIndex) {
      this.idIndex = new Map();
      for (let index = 0; index < this.size; index++) this.idIndex.set(this.value(index, "id") as number, index);
    }
    return this.idIndex.get(id);
  }

  /** Lower-cased text of a field for every row (null stays ""). */
  lowerColumn(field: string): string[] {
    let column = this.lowerColumns.get(field);
    if (!column) {
      column = new Array<string>(this.size);
      for (let index = 0; index < this.size; index++) {
        const value = this.value(index, field);
        column[index] = value === null || value === undefined ? "" : String(value).toLowerCase();
      }
      this.lowerColumns.set(field, column);
    }
    return column;
  }

  /**
   * A field's lower-cased text of all rows joined into haystacks (HAYSTACK_SEPARATOR between rows),
   * with where each row starts: `contains` becomes a few indexOf calls instead of one per row.
   * Rows whose text fits in Latin-1 get their own haystack, which V8 stores one byte per character
   * and scans about twice as fast; a needle with wider characters skips it entirely.
   */
  haystacks(field: string): readonly Haystack[] {
    let haystacks = this.haystackCache.get(field);
    if (!haystacks) {
      const column = this.lowerColumn(field);
      const narrow: number[] = [];
      const wide: number[] = [];
      for (let index = 0; index < column.length; index++) (isLatin1(column[index]) ? narrow : wide).push(index);
      haystacks = [buildHaystack(column, narrow, true), buildHaystack(column, wide, false)].filter((haystack) => haystack.rows.length > 0);
      this.haystackCache.set(field, haystacks);
    }
    return haystacks;
  }

  /**
   * For each run of three characters (UTF-16 code units) of a field's lower-cased text, the rows
   * holding it, ascending. A `contains` of three or more characters then checks only the rows of
   * its rarest trigram instead of scanning every row: what keeps uncached searches over 100,000
   * names well under a millisecond. Built once per field (about 10 MB for 100,000 names).
   */
  trigrams(field: string): Map<string, Int32Array> {
    let index = this.trigramCache.get(field);
    if (!index) {
      const column = this.lowerColumn(field);
      const lists = new Map<string, number[]>();
      for (let row = 0; row < column.length; row++) {
        const text = column[row];
        for (let i = 0; i + 3 <= text.length; i++) {
          const key = text.slice(i, i + 3);
          let list = lists.get(key);
          if (!list) {
            list = [];
            lists.set(key, list);
          }
          // Rows are visited in order, so a repeat within one row is always the last entry.
          if (list[list.length - 1] !== row) list.push(row);
        }
      }
      index = new Map();
      for (const [key, list] of lists) index.set(key, Int32Array.from(list));
      this.trigramCache.set(field, index);
    }
    return index;
  }

  /**
   * Dense rank of every row by one field (equal values share a rank). Text compares
   * case-insensitively; null sorts first, as in MySQL.
   */
  rank(field: string): Int32Array {
    let rank = this.ranks.get(field);
    if (!rank) {
      const order = this.ascendingOrder(field);
      const compare = this.valueComparator(field);
      rank = new Int32Array(this.size);
      let current = 0;
      for (let i = 0; i < order.length; i++) {
        if (i > 0 && compare(order[i - 1], order[i]) !== 0) current++;
        rank[order[i]] = current;
      }
      this.ranks.set(field, rank);
    }
    return rank;
  }

  /** Row indexes ordered by the field, ties by ascending id, in either direction. */
  order(field: string, descending: boolean): Int32Array {
    if (!descending) return this.ascendingOrder(field);
    const key = `-${field}`;
    let order = this.orders.get(key);
    if (!order) {
      const rank = this.rank(field);
      order = Int32Array.from(this.ascendingOrder(field)).sort((a, b) => rank[b] - rank[a] || a - b);
      this.orders.set(key, order);
    }
    return order;
  }

  private ascendingOrder(field: string): Int32Array {
    const key = `+${field}`;
    let order = this.orders.get(key);
    if (!order) {
      order = new Int32Array(this.size);
      for (let i = 0; i < order.length; i++) order[i] = i;
      // Rows are stored by ascending id, so that order needs no sort.
      if (field !== "id") {
        const compare = this.valueComparator(field);
        order.sort((a, b) => compare(a, b) || a - b);
      }
      this.orders.set(key, order);
    }
    return order;
  }

  /** Compares two rows by one field, reading every value once up front rather than per comparison. */
  private valueComparator(field: string): (a: number, b: number) => number {
    const values = new Array<ScalarValue>(this.size);
    let isText = false;
    for (let index = 0; index < this.size; index++) {
      const value = this.value(index, field);
      values[index] = value;
      if (typeof value === "string") isText = true;
    }
    const folded = isText ? this.lowerColumn(field) : undefined;
    return (a, b) => {
      const left = values[a];
      const right = values[b];
      if (left === right) return 0;
      if (left === null || left === undefined) return -1;
      if (right === null || right === undefined) return 1;
      if (folded) {
        const l = folded[a];
        const r = folded[b];
        if (l !== r) return l < r ? -1 : 1;
      }
      return left < right ? -1 : left > right ? 1 : 0;
    };
  }
}
