import "server-only";

/**
 * The key ring of the secret box, parsed from CREDENTIAL_ENCRYPTION_KEYS: "kid:base64,kid2:base64",
 * the first key encrypts, every listed key decrypts. Pure: lib/env.ts validates the variable with
 * it at start-up, and lib/crypto/secret-box.ts gets the parsed ring from lib/env.ts.
 */

export const KEYS_ENV_VAR = "CREDENTIAL_ENCRYPTION_KEYS";
export const GENERATE_KEY_COMMAND = `node -e "console.log('k1:'+require('crypto').randomBytes(32).toString('base64'))"`;

const KEY_BYTES = 32;
/** A key id: also what a ciphertext names (lib/crypto/secret-box.ts). */
export const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** The key ring is missing or malformed: an operator error, named with the variable and the fix. */
export class KeyConfigurationError extends Error {
  constructor(problem: string) {
    super(
      `${KEYS_ENV_VAR} ${problem}. Expected "kid:base64-of-32-random-bytes" (comma-separated for a key ring; ` +
        `the first key encrypts, every listed key decrypts). Make a key with: ${GENERATE_KEY_COMMAND}`,
    );
    this.name = "KeyConfigurationError";
  }
}

export interface KeyRing {
  activeKeyId: string;
  keys: ReadonlyMap<string, Buffer>;
}

/** Parses "kid:base64,kid2:base64" (standard or URL-safe base64, 32 bytes each). */
export function parseKeyRing(value: string | undefined): KeyRing {
  if (value === undefined || value.trim() === "") throw new KeyConfigurationError("is not set");
  const keys = new Map<string, Buffer>();
  let activeKeyId: string | undefined;
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) throw new KeyConfigurationError("holds no key");
  for (const [index, entry] of entries.entries()) {
    const separator = entry.indexOf(":");
    if (separator <= 0) throw new KeyConfigurationError(`entry ${index + 1} has no "kid:" prefix`);
    const kid = entry.slice(0, separator);
    const encoded = entry.slice(separator + 1).trim();
    if (!KID_PATTERN.test(kid)) {
      throw new KeyConfigurationError(`entry ${index + 1} has an invalid key id "${kid}" (use letters, digits, "_" or "-", at most 32)`);
    }
    if (keys.has(kid)) throw new KeyConfigurationError(`lists the key id "${kid}" twice`);
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) {
      throw new KeyConfigurationError(`key "${kid}" is not base64`);
    }
    const key = Buffer.from(encoded.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (key.length !== KEY_BYTES) {
      throw new KeyConfigurationError(`key "${kid}" is ${key.length} bytes; AES-256 needs exactly ${KEY_BYTES}`);
    }
    keys.set(kid, key);
    activeKeyId ??= kid;
  }
  return { activeKeyId: activeKeyId!, keys };
}
