import "server-only";
import { createSecretKey, hkdfSync, type KeyObject } from "node:crypto";
import { errors, jwtDecrypt, type JWTPayload } from "jose";

/**
 * Reads next-auth's session cookie (a JWE, `alg: dir`, `enc: A256GCM`, as next-auth/jwt `encode`
 * writes it) with jose, the library next-auth itself decrypts with, but with the encryption key
 * derived ONCE per process and secret. next-auth's own `decode` derives the key with HKDF on every
 * call: a page view's largest fixed cost after rendering in the CPU profile of issue 38 (hkdf and
 * the key object it builds, about 2 % of the server's CPU). jose with a cached KeyObject costs
 * ~17 µs a token here (a hand-written decode ~8 µs; a page view ~25 ms), and leaves the JWE
 * parsing and its checks to a well-kept library.
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

/** next-auth never compresses its tokens; jose would inflate a `zip: "DEF"` one by default. */
async function refuseCompressed(): Promise<Uint8Array> {
  throw new errors.JOSENotSupported("compressed session tokens are not accepted");
}

/** The claims of a session token, or null when it is not one this secret wrote, or has expired. */
export async function decodeSessionToken(token: string, secret: string, nowSeconds = Date.now() / 1000): Promise<JWTPayload | null> {
  try {
    const { payload } = await jwtDecrypt(token, encryptionKey(secret), {
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(nowSeconds * 1000),
      inflateRaw: refuseCompressed,
    });
    return payload;
  } catch (error) {
    // Every way a token can be unreadable (malformed, forged, another key or algorithm, expired)
    // is a JOSEError; anything else is a fault of ours and goes up.
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}
