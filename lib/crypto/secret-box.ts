import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Secrets at rest: AES-256-GCM with a random 96-bit IV, a key id in every ciphertext and a key
 * ring for rotation. Format: `v1:<kid>:<iv base64url>:<ciphertext+tag base64url>`.
 *
 * The associated data (`aad`) binds a ciphertext to the row and field it belongs to (see
 * `secretAad`), so a ciphertext copied onto another row or column fails to decrypt instead of
 * silently passing as that row's secret. The version and key id are bound as well.
 */

export const KEYS_ENV_VAR = "CREDENTIAL_ENCRYPTION_KEYS";
export const GENERATE_KEY_COMMAND = `node -e "console.log('k1:'+require('crypto').randomBytes(32).toString('base64'))"`;

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;

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

/** A ciphertext that cannot be decrypted: never returns garbage instead. */
export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DecryptionError";
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
  const entries = value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
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

let cached: { source: string | undefined; ring: KeyRing } | undefined;

/** The key ring from the environment; re-read when the variable changes (tests, rotation scripts). */
export function getKeyRing(): KeyRing {
  const source = process.env[KEYS_ENV_VAR];
  if (!cached || cached.source !== source) cached = { source, ring: parseKeyRing(source) };
  return cached.ring;
}

/** The id of the key that new ciphertexts are written with (the first one listed). */
export function activeKeyId(): string {
  return getKeyRing().activeKeyId;
}

/** Every key id of the ring, active first. */
export function keyIds(): string[] {
  return [...getKeyRing().keys.keys()];
}

/** The associated data for a secret stored in `table.field` of the row `id`. */
export function secretAad(table: string, id: string, field: string): string {
  return `${table}:${id}:${field}`;
}

function boundAad(kid: string, aad: string): Buffer {
  return Buffer.from(`${VERSION}:${kid}:${aad}`, "utf8");
}

export function encryptSecret(plaintext: string, aad: string): string {
  const ring = getKeyRing();
  const kid = ring.activeKeyId;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", ring.keys.get(kid)!, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(boundAad(kid, aad));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}:${kid}:${iv.toString("base64url")}:${body.toString("base64url")}`;
}

interface ParsedCiphertext {
  kid: string;
  iv: Buffer;
  body: Buffer;
}

function parseCiphertext(ciphertext: string): ParsedCiphertext {
  if (typeof ciphertext !== "string") throw new DecryptionError("The ciphertext is not a string.");
  const parts = ciphertext.split(":");
  if (parts.length !== 4 || parts[0] !== VERSION) {
    throw new DecryptionError(`The value is not a ${VERSION} ciphertext ("${VERSION}:<kid>:<iv>:<ciphertext>").`);
  }
  const [, kid, ivText, bodyText] = parts;
  if (!KID_PATTERN.test(kid) || !BASE64URL_PATTERN.test(ivText) || !BASE64URL_PATTERN.test(bodyText)) {
    throw new DecryptionError("The ciphertext is malformed.");
  }
  const iv = Buffer.from(ivText, "base64url");
  const body = Buffer.from(bodyText, "base64url");
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new DecryptionError("The ciphertext is malformed (IV or tag length).");
  return { kid, iv, body };
}

/** Decrypts a `v1:` ciphertext; throws DecryptionError (never returns garbage). */
export function decryptSecret(ciphertext: string, aad: string): string {
  const { kid, iv, body } = parseCiphertext(ciphertext);
  const key = getKeyRing().keys.get(kid);
  if (!key) {
    throw new DecryptionError(`The ciphertext was written with key "${kid}", which is not in ${KEYS_ENV_VAR}. Add it back to the ring to read it.`);
  }
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(boundAad(kid, aad));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new DecryptionError(
      `The ciphertext failed authentication with key "${kid}": it was tampered with, belongs to another record, or the key changed.`,
    );
  }
}

/** The key id a ciphertext names, or null when the value is not a `v1:` ciphertext. */
export function ciphertextKeyId(ciphertext: string): string | null {
  try {
    return parseCiphertext(ciphertext).kid;
  } catch {
    return null;
  }
}

/** True when the ciphertext was not written with the active key (or is not a `v1:` ciphertext). */
export function needsReencryption(ciphertext: string): boolean {
  return ciphertextKeyId(ciphertext) !== activeKeyId();
}

/** Decrypts with whichever ring key wrote it and encrypts again with the active key (rotation). */
export function reencryptSecret(ciphertext: string, aad: string): string {
  return encryptSecret(decryptSecret(ciphertext, aad), aad);
}
