import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { HOTP, Secret, TOTP } from "otpauth";

/**
 * The arithmetic of two-factor sign-in, with no database and no key: TOTP codes (RFC 6238: HMAC-SHA-1,
 * 6 digits, 30-second steps, what every authenticator app speaks) and recovery codes. The rules that
 * need the database (each step used once, each recovery code used once) are lib/auth/two-factor.ts.
 */

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the server's: a phone's clock a little off, a code typed as it turned. */
export const TOTP_WINDOW = 1;
export const ISSUER = "EMS Portal";

/** A new TOTP secret: 160 random bits (RFC 4226's recommended length), as base32 for apps and people. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, account: string): string {
  return new TOTP({ issuer: ISSUER, label: account, secret: Secret.fromBase32(secretBase32), digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS }).toString();
}

/** The base32 secret in groups of four, for typing into an app by hand. */
export function groupSecret(secretBase32: string): string {
  return secretBase32.replace(/(.{4})(?=.)/g, "$1 ");
}

/** The time step of a moment: how many 30-second periods since the Unix epoch. */
export function totpStep(at: number = Date.now()): number {
  return Math.floor(at / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of one time step (tests and the e2e suite compute codes the same way an app does). */
export function totpCodeAt(secretBase32: string, step: number): string {
  return HOTP.generate({ secret: Secret.fromBase32(secretBase32), digits: TOTP_DIGITS, counter: step });
}

/** What a person typed, as the six digits it should be ("123 456", "123-456" are fine); null if not a TOTP code. */
export function normalizeTotpCode(input: string): string | null {
  const digits = input.replace(/[\s-]/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * The time step whose code `code` is, among the server's step and one either side, and only if it
 * is newer than `lastUsedStep` (a code, or one older than the last accepted, is never accepted
 * again); null when there is none. Compared in constant time. The newest matching step wins.
 */
export function matchingTotpStep(secretBase32: string, code: string, options: { at?: number; lastUsedStep?: number | null } = {}): number | null {
  const typed = normalizeTotpCode(code);
  if (!typed) return null;
  const now = totpStep(options.at);
  const floor = options.lastUsedStep ?? -Infinity;
  let found: number | null = null;
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step += 1) {
    // Every candidate is computed and compared, found or not: the time does not depend on which matched.
    const matches = timingSafeEqual(Buffer.from(totpCodeAt(secretBase32, step)), Buffer.from(typed));
    if (matches && step > floor) found = step;
  }
  return found;
}

// ---- Recovery codes ------------------------------------------------------------------------------

export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32, lower case: no i, l, o or u to misread. 16 characters carry 80 random bits. */
const RECOVERY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const RECOVERY_LENGTH = 16;

/** Ten new recovery codes, written `xxxx-xxxx-xxxx-xxxx`. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(RECOVERY_LENGTH);
    // 256 is a multiple of 32: each byte's low five bits are uniform.
    const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte & 31]).join("");
    return chars.replace(/(.{4})(?=.)/g, "$1-");
  });
}

/**
 * A recovery code as typed, in its one canonical spelling: case, spaces and dashes do not matter,
 * and the letters Crockford's base32 reads as digits (i, l as 1; o as 0) are read so. Null when it
 * cannot be one.
 */
export function normalizeRecoveryCode(input: string): string | null {
  const text = input.toLowerCase().replace(/[\s-]/g, "").replace(/[il]/g, "1").replace(/o/g, "0");
  if (text.length !== RECOVERY_LENGTH) return null;
  for (const char of text) if (!RECOVERY_ALPHABET.includes(char)) return null;
  return text;
}

/**
 * What is stored of a recovery code: SHA-256 of the person's id and the canonical code, hex. A code
 * carries 80 random bits, so a slow password hash would add nothing against guessing (2^79 tries on
 * average, offline), while a plain digest lets a typed code be found with one indexed lookup and
 * used with one conditional UPDATE. The id keeps the same code of two people apart.
 */
export function hashRecoveryCode(userId: string, code: string): string {
  const canonical = normalizeRecoveryCode(code);
  if (!canonical) throw new Error("not a recovery code");
  return createHash("sha256").update(`${userId}:${canonical}`).digest("hex");
}
