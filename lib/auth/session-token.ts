import "server-only";
import { createDecipheriv, createSecretKey, hkdfSync, type KeyObject } from "node:crypto";

/**
 * Reads next-auth's session cookie (a JWE, `alg: dir`, `enc: A256GCM`, as next-auth/jwt `encode`
 * writes it) with its encryption key derived ONCE per process and secret. next-auth's own `decode`
 * derives the key with HKDF on every call: a page view's largest fixed cost after rendering in the
 * CPU profile of issue 38 (hkdf and the key object it builds, about 2 % of the server's CPU).
 *
 * Only the one shape next-auth writes is accepted; anything else (another algorithm, compression,
 * a wrong tag, an expired token) is `null`, as `getToken` answers for a token it cannot read.
 */

/** next-auth's `getDerivedEncryptionKey(secret, "")`: HKDF-SHA256, empty salt, this info string. */
const KEY_INFO = "NextAuth.js Generated Encryption Key";
/** next-auth's `jwtDecrypt(…, { clockTolerance: 15 })`. */
const CLOCK_TOLERANCE_SECONDS = 15;

/** The last secret's key: one secret a process (NEXTAUTH_SECRET); a new one replaces it. */
let derived: { secret: string; key: KeyObject } | null = null;

function encryptionKey(secret: string): KeyObject {
  if (derived?.secret !== secret) {
    derived = { secret, key: createSecretKey(Buffer.from(hkdfSync("sha256", secret, "", KEY_INFO, 32))) };
  }
  return derived.key;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The claims of a session token, or null when it is not one this secret wrote, or has expired. */
export function decodeSessionToken(token: string, secret: string, nowSeconds = Date.now() / 1000): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 5 || !parts.every((part) => BASE64URL.test(part))) return null;
  const [protectedHeader, encryptedKey, iv, ciphertext, tag] = parts;
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(protectedHeader, "base64url").toString("utf8"));
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
  if (!isDirectA256Gcm(header) || encryptedKey !== "") return null;
  const ivBytes = Buffer.from(iv, "base64url");
  const tagBytes = Buffer.from(tag, "base64url");
  if (ivBytes.length !== 12 || tagBytes.length !== 16) return null;
  let plaintext: string;
  try {
    const decipher = createDecipheriv("aes-256-gcm", encryptionKey(secret), ivBytes, { authTagLength: 16 });
    // JWE: the additional data is the protected header as it was sent (ASCII of its base64url).
    decipher.setAAD(Buffer.from(protectedHeader, "ascii"));
    decipher.setAuthTag(tagBytes);
    plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch (error) {
    // A tag that does not verify: forged, or written with another secret.
    if (error instanceof Error && /authenticate|auth tag|bad decrypt/i.test(error.message)) return null;
    throw error;
  }
  let claims: unknown;
  try {
    claims = JSON.parse(plaintext);
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) return null;
  const { exp, nbf } = claims as { exp?: unknown; nbf?: unknown };
  if (exp !== undefined && (typeof exp !== "number" || exp <= nowSeconds - CLOCK_TOLERANCE_SECONDS)) return null;
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > nowSeconds + CLOCK_TOLERANCE_SECONDS)) return null;
  return claims as Record<string, unknown>;
}

function isDirectA256Gcm(header: unknown): boolean {
  if (typeof header !== "object" || header === null) return false;
  const { alg, enc, zip, crit } = header as Record<string, unknown>;
  return alg === "dir" && enc === "A256GCM" && zip === undefined && crit === undefined;
}
