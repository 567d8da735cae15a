import { MAX_IDS } from "@/lib/ems/contract";

/**
 * The "only these ids" box: people paste lists from spreadsheets, logs and chats, so any mix of
 * commas, spaces, semicolons and new lines separates ids. Every problem is reported precisely
 * (which entry, and why) instead of silently dropping it: a wrong filter is worse than none.
 */
export { MAX_IDS };

export type IdListResult = { ok: true; ids: number[] } | { ok: false; errors: string[] };

const SEPARATORS = /[\s,;]+/;

function describe(entry: string): string {
  return entry.length > 24 ? `“${entry.slice(0, 24)}…”` : `“${entry}”`;
}

export function parseIdList(text: string): IdListResult {
  const entries = text.split(SEPARATORS).filter((entry) => entry !== "");
  const errors: string[] = [];
  const ids: number[] = [];
  const seen = new Set<number>();
  entries.forEach((entry, index) => {
    const position = `Entry ${index + 1} (${describe(entry)})`;
    if (!/^[+-]?\d+(\.\d+)?$/.test(entry)) {
      errors.push(`${position} is not a number; ids are positive whole numbers.`);
      return;
    }
    const value = Number(entry);
    if (!Number.isInteger(value)) {
      errors.push(`${position} is not a whole number.`);
      return;
    }
    if (value < 1) {
      errors.push(`${position} is not a positive integer; ids start at 1.`);
      return;
    }
    if (!Number.isSafeInteger(value)) {
      errors.push(`${position} is too large to be an id.`);
      return;
    }
    if (!seen.has(value)) {
      seen.add(value);
      ids.push(value);
    }
  });
  if (errors.length === 0 && ids.length > MAX_IDS) {
    errors.push(`${ids.length} different ids were given; at most ${MAX_IDS} can be asked for at once.`);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, ids };
}

/** The canonical form kept in the URL: comma-separated, in the order given. */
export function formatIdList(ids: readonly number[]): string {
  return ids.join(",");
}

/** A record's id from its page's address (`/webhooks/411`): a positive whole number, else null (the page then answers 404). */
export function parseRecordId(raw: string): number | null {
  return /^\d{1,15}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;
}
