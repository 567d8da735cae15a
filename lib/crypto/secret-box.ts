import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { credentialKeyRing } from "@/lib/env";
import { KEYS_ENV_VAR, KID_PATTERN, type KeyRing } from "@/lib/config/key-ring";

export { GENERATE_KEY_COMMAND, KEYS_ENV_VAR, KeyConfigurationError, parseKeyRing, type KeyRing } from "@/lib/config/key-ring";

/**
 * Secrets at rest: AES-256-GCM with a random 96-bit IV, a key id in every ciphertext and a key
 * ring for rotation. Format: `v1:<kid>:<iv base64url>:<ciphertext+tag base64url>`.
 *
 * The associated data (`aad`) binds a ciphertext to the row and field it belongs to (see
 * `secretAad`), so a ciphertext copied onto another row or column fails to decrypt instead of
 * silently passing as that row's secret. The version and key id are bound as well.
 */

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A ciphertext that cannot be decrypted: never returns garbage instead. */
export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DecryptionError";
  }
}

/** The key ring from the environment (lib/env.ts); re-read when the variable changes (tests, rotation scripts). */
export function getKeyRing(): KeyRing {
  return credentialKeyRing();
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
    throw new DecryptionError(`The ciphertext failed authentication with key "${kid}": it was tampered with, belongs to another record, or the key changed.`);
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
