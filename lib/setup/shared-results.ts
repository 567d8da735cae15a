import "server-only";
import { createHash } from "node:crypto";

/**
 * Setup results (lib/setup/stored-results.ts) by the SHA-256 of their JSON, so that two teams'
 * identical results are one object in this process. Results are kept per team and credential, and
 * two teams reading one account compute the same Health findings and Coverage rows from the same
 * records: in a heap snapshot after `npm run bench:memory`'s review, two 2.8 MB Health results and
 * two 0.6 MB Coverage results, byte-identical, each kept by its own team.
 *
 * Safe across teams: a team gets the shared object only for JSON it has itself computed or
 * decrypted, byte for byte, so it learns nothing it did not hold already, and the object is deeply
 * frozen, so no view of one team can change what another sees. Weak: an entry goes when no kept
 * result holds its object.
 */
const byContent = new Map<string, WeakRef<object>>();
const forget = new FinalizationRegistry<string>((hash) => {
  if (byContent.get(hash)?.deref() === undefined) byContent.delete(hash);
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** `value` (whose JSON is `json`), frozen, or the result with the same JSON already kept here. */
export function sharedResult<T>(json: string, value: T): T {
  if (!value || typeof value !== "object") return value;
  const hash = createHash("sha256").update(json).digest("base64");
  const known = byContent.get(hash)?.deref();
  if (known) return known as T;
  deepFreeze(value);
  byContent.set(hash, new WeakRef(value));
  forget.register(value, hash);
  return value;
}

/** For tests: a process that has shared no result yet. */
export function forgetSharedResults(): void {
  byContent.clear();
}
