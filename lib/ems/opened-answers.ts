import "server-only";
import { createHash } from "node:crypto";
import { keyIds } from "@/lib/crypto/secret-box";

/**
 * Shared answers this process has already decrypted and parsed, by ciphertext. A team's stored
 * answer is read by every view of its page for the whole sharing window, and opening it each time
 * (base64, AES-GCM, JSON.parse) cost about 2 ms and a megabyte of garbage for 140 groups with their
 * webhooks; for an account of 5,000 groups a Health view reads 35 answers, 23 MB of ciphertext.
 *
 * The row is still read on each view (it says how old the answer is, and whether another instance
 * stored a newer one), but only its summary (`CiphertextSummary`: length, first 160 characters, key
 * id, computed by PostgreSQL): the ciphertext itself is sent only when the summary finds nothing
 * here (lib/ems/answer-cache.ts). A row another instance rewrote has a new summary: a miss.
 *
 * - Keyed by the answer's scope (its AAD) and the ciphertext's length and first 160 characters:
 *   `v1:<kid>:<iv>:` and the body's start. The IV is 96 random bits drawn for each encryption, which
 *   a new encryption never repeats. The beginning, not the end (the GCM tag, as it was at first):
 *   PostgreSQL reads a TOASTed value's first bytes and its size without the rest, but its end only
 *   by reading all of it, and for the 35 answers of a 5,000-group account that was 23 MB on every
 *   view, about 150 ms of the database's time (`octet_length`, not `length`, for the same reason;
 *   the ciphertext is ASCII). An entry is made only after a successful decryption, so a forged row
 *   (or a forged summary) can at most get back the answer that was really stored under that scope
 *   before it.
 * - Only while the ciphertext's key is still in the ring: a rotated-away key stays a miss.
 * - Frozen, deeply: one object serves many page views, and none may change it for the next.
 * - Bounded by the ciphertexts' total length, least recently used first out.
 */

/**
 * 56 M characters of ciphertext. Opened, an answer holds about 0.64 bytes of heap per character of
 * its ciphertext (`npm run bench:answer-memory`: the 5,000-group account's 35 answers, 23.2 MB, hold
 * 14.9 MB; 25.7 MB before their repeated values were made one (`internRepeats`: short strings, 18.5 MB;
 * then parts made of values only too)), so the memo holds at most ~36 MB of the 256 MB heap
 * `npm start` gives the portal: two
 * accounts (or two teams of one account: answers are per team) of 5,000 groups, 46.4 M, with room for
 * the small ones and a large selection's pages beside them. At 32 M the second large account evicted
 * the first page by page, and each Health view of either read and opened all of its 35 answers again
 * (`npm run bench:memory`, two teams drafting at once); at 8 M one account did that to itself.
 */
const MAX_TOTAL_LENGTH = 56_000_000;
/** Characters of the ciphertext's beginning in the key: `v1:`, the key id, the 12-byte IV (16) and the body's first bytes. */
export const CIPHERTEXT_HEAD_LENGTH = 160;

/** What identifies a ciphertext here, without the ciphertext: PostgreSQL computes it for a row. */
export interface CiphertextSummary {
  /** In characters (the ciphertext is ASCII: PostgreSQL's `length` and JavaScript's agree). */
  length: number;
  /** The first CIPHERTEXT_HEAD_LENGTH characters. */
  head: string;
  /** The key id (`v1:<kid>:…`). */
  keyId: string;
}

const opened = new Map<string, { value: unknown; length: number }>();
let totalLength = 0;

/**
 * A copy of a part of a string that does not keep the whole alive: V8 makes `slice` of a long string
 * a view of it, so a memo key made of a ciphertext's last 64 characters held the whole ciphertext
 * (a heap snapshot while a plan applied: 80 ciphertexts, 67 MB, kept by this memo's keys alone).
 */
const detached = (part: string) => Buffer.from(part, "utf8").toString("utf8");

export function summaryOf(ciphertext: string): CiphertextSummary {
  const head = detached(ciphertext.slice(0, CIPHERTEXT_HEAD_LENGTH));
  return { length: ciphertext.length, head, keyId: head.split(":", 2)[1] ?? "" };
}

function memoKey(aad: string, summary: CiphertextSummary): string | null {
  if (summary.length > MAX_TOTAL_LENGTH || !keyIds().includes(summary.keyId)) return null;
  return `${aad}\n${summary.length}:${summary.head}`;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Opened answers' records by the SHA-256 of their JSON. Answers are stored per team, so two teams
 * reading one account (or one team's answer stored anew with the same records) opened the same
 * records twice: two 26 MB copies of a 5,000-group account's setup in a heap of 256 MB
 * (`npm run bench:memory`, two teams drafting). An answer whose records are already open here
 * shares them; they are frozen, and a team gets them only by decrypting the same records itself.
 * Weak: the records go when no opened answer holds them.
 */
const recordsByContent = new Map<string, WeakRef<readonly unknown[]>>();
const forgetRecords = new FinalizationRegistry<string>((hash) => {
  if (recordsByContent.get(hash)?.deref() === undefined) recordsByContent.delete(hash);
});

/** Longer values (URLs, descriptions) are mostly one of a kind: not worth a lookup. */
const INTERNED_MAX_LENGTH = 64;
/** A repeated part (a list of fields, a header) is short; a longer one's JSON is not worth making for the lookup. */
const SHARED_PART_MAX_JSON = 512;

/** What an answer's records repeat, each kept once: short strings, and parts made of values only. */
interface Repeats {
  strings: Map<string, string>;
  /** By their JSON: frozen, since every record that holds one shares it. */
  parts: Map<string, object>;
}

/**
 * The records' repeated values made one each, within one answer. JSON.parse makes a new string for
 * every occurrence, and a page of 200 groups repeats its formats, methods, header names and values,
 * triggers and people's names thousands of times: in a heap snapshot after bench:memory's undo, 15
 * of the 23 MB of short strings were copies of another. It makes a new array or object for every
 * occurrence too: of a 5,000-group account's 20,000 webhooks' lists of fields, fields posted and
 * custom fields, fewer than 700 differ (most are empty), and half of their headers repeat another's.
 * A part made of values only (no record: nothing with an `id`) is kept once, frozen, and shared by
 * every record that has an equal one. The answers stay open for as long as they are shared
 * (MAX_TOTAL_LENGTH), so each copy is heap held, not garbage.
 *
 * Returns the value to keep in the holder's place: `value` itself or an equal part kept before.
 */
function internRepeats(value: object, repeats: Repeats): object {
  const holder = value as Record<string, unknown>;
  let valuesOnly = !Array.isArray(value) ? !("id" in holder) : true;
  for (const key of Object.keys(holder)) {
    const inner = holder[key];
    if (typeof inner === "string") {
      if (inner.length > INTERNED_MAX_LENGTH) continue;
      const one = repeats.strings.get(inner);
      if (one === undefined) repeats.strings.set(inner, inner);
      else holder[key] = one;
    } else if (inner && typeof inner === "object") {
      const kept = internRepeats(inner, repeats);
      if (kept !== inner) holder[key] = kept;
      // A part that holds a record (or a part too long to share) is not shared itself.
      else if (!Object.isFrozen(inner)) valuesOnly = false;
    }
  }
  if (!valuesOnly) return value;
  const json = JSON.stringify(value);
  if (json.length > SHARED_PART_MAX_JSON) return value;
  const known = repeats.parts.get(json);
  if (known) return known;
  repeats.parts.set(json, Object.freeze(value));
  return value;
}

/** The records (an answer's items) with their repeated values kept once: the list itself is never shared. */
function internRecords(items: readonly unknown[]): void {
  const repeats: Repeats = { strings: new Map(), parts: new Map() };
  const list = items as unknown[];
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    if (item && typeof item === "object") list[index] = internRepeats(item, repeats);
  }
}

/** What `sharedRecordsOf` knows records by: the SHA-256 of their JSON. */
export function recordsHash(itemsJson: string): string {
  return createHash("sha256").update(itemsJson).digest("base64");
}

/** `items` (parsed from `itemsJson`), or the same records already open here, frozen. */
export function sharedRecords<T>(itemsJson: string, items: readonly T[]): readonly T[] {
  return sharedRecordsOf(recordsHash(itemsJson), items);
}

/** `items`, whose JSON's `recordsHash` is `hash`, or the same records already open here, frozen. */
export function sharedRecordsOf<T>(hash: string, items: readonly T[]): readonly T[] {
  const known = recordsByContent.get(hash)?.deref();
  if (known) return known as readonly T[];
  internRecords(items);
  deepFreeze(items);
  recordsByContent.set(hash, new WeakRef(items));
  forgetRecords.register(items, hash);
  return items;
}

/** The answer opened here before for a ciphertext of this summary, if it is still kept and its key still in the ring. */
export function rememberedAnswer<T>(summary: CiphertextSummary, aad: string): T | undefined {
  const key = memoKey(aad, summary);
  const hit = key === null ? undefined : opened.get(key);
  if (!hit) return undefined;
  // Most recently used last.
  opened.delete(key!);
  opened.set(key!, hit);
  return hit.value as T;
}

/** The opened answer for this ciphertext: from memory, or `open()` (which may throw: nothing is kept). */
export function openedAnswer<T>(ciphertext: string, aad: string, open: () => T): T {
  const summary = summaryOf(ciphertext);
  const key = memoKey(aad, summary);
  if (key === null) return open();
  const remembered = rememberedAnswer<T>(summary, aad);
  if (remembered !== undefined) return remembered;
  const value = deepFreeze(open());
  opened.set(key, { value, length: ciphertext.length });
  totalLength += ciphertext.length;
  for (const [oldest, entry] of opened) {
    if (totalLength <= MAX_TOTAL_LENGTH) break;
    opened.delete(oldest);
    totalLength -= entry.length;
  }
  return value;
}

/**
 * Forgets the opened answers whose scope (their AAD) names `scopePart`: a credential's answers once
 * a write dropped their rows. Their rows are gone, so nothing finds them again, and while a plan is
 * applied every write drops them: kept, each Health view in between added a whole new copy of the
 * account's setup beside the stale ones until the bound evicted them (a memo full of old versions).
 * `except`: the scopes (AADs) of answers the write kept (lib/ems/answer-cache.ts `answersUnchangedBy`).
 */
export function forgetOpenedAnswersOf(scopePart: string, except: ReadonlySet<string> = new Set()): void {
  for (const [key, entry] of opened) {
    const aad = key.split("\n", 1)[0];
    if (!aad.includes(scopePart) || except.has(aad)) continue;
    opened.delete(key);
    totalLength -= entry.length;
  }
}

/** For tests: forget every opened answer. */
export function forgetOpenedAnswers(): void {
  opened.clear();
  totalLength = 0;
}
