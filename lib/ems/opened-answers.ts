import "server-only";
import { keyIds } from "@/lib/crypto/secret-box";

/**
 * Shared answers this process has already decrypted and parsed, by ciphertext. A team's stored
 * answer is read by every view of its page for the whole sharing window, and opening it each time
 * (base64, AES-GCM, JSON.parse) cost about 2 ms and a megabyte of garbage for 140 groups with their
 * webhooks. The row is still read each time (it says how old the answer is, and whether another
 * instance stored a newer one); only the opening is spared.
 *
 * - Keyed by the answer's scope (its AAD) and the ciphertext's length and last 64 characters: the
 *   GCM tag and the end of the body, which a new encryption (random IV) never repeats. An entry is
 *   made only after a successful decryption, so a forged row can at most get back the answer that
 *   was really stored before it.
 * - Only while the ciphertext's key is still in the ring: a rotated-away key stays a miss.
 * - Frozen, deeply: one object serves many page views, and none may change it for the next.
 * - Bounded by the ciphertexts' total length, least recently used first out.
 */
const MAX_TOTAL_LENGTH = 8_000_000;

const opened = new Map<string, { value: unknown; length: number }>();
let totalLength = 0;

function keyIdOf(ciphertext: string): string {
  return ciphertext.split(":", 2)[1] ?? "";
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The opened answer for this ciphertext: from memory, or `open()` (which may throw: nothing is kept). */
export function openedAnswer<T>(ciphertext: string, aad: string, open: () => T): T {
  if (ciphertext.length > MAX_TOTAL_LENGTH || !keyIds().includes(keyIdOf(ciphertext))) return open();
  const key = `${aad}\n${ciphertext.length}:${ciphertext.slice(-64)}`;
  const hit = opened.get(key);
  if (hit) {
    // Most recently used last.
    opened.delete(key);
    opened.set(key, hit);
    return hit.value as T;
  }
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

/** For tests: forget every opened answer. */
export function forgetOpenedAnswers(): void {
  opened.clear();
  totalLength = 0;
}
