import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Bearer tokens are self-contained and HMAC-signed, so any sandbox instance sharing the signing
 * secret verifies them (several portal processes, or a restarted one) without shared memory.
 * Format: `ems1.<base64url JSON payload>.<base64url HMAC-SHA256>`.
 */
type TokenPayload = {
  /** account key */
  a: string;
  /** issued at, epoch ms (sandbox clock) */
  i: number;
  /** expires at, epoch ms (sandbox clock) */
  e: number;
  /** random nonce: two tokens issued in the same millisecond still differ */
  n: string;
};

export type VerifiedToken = { accountKey: string; issuedAt: number; expiresAt: number };

export type TokenCheck = { ok: true; token: VerifiedToken } | { ok: false; reason: "invalid" | "expired" | "revoked" };

const PREFIX = "ems1.";

/**
 * Verified signatures are remembered (bounded), so a client reusing its token for many calls pays
 * for the HMAC once. Expiry and revocation are still checked on every call.
 */
const VERIFIED_CACHE_SIZE = 2048;

export class TokenSigner {
  private readonly verified = new Map<string, TokenPayload>();

  constructor(private readonly secret: string) {}

  issue(accountKey: string, issuedAt: number, lifetimeMs: number): { token: string; expiresAt: number } {
    const payload: TokenPayload = { a: accountKey, i: issuedAt, e: issuedAt + lifetimeMs, n: randomBytes(12).toString("base64url") };
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return { token: `${PREFIX}${body}.${this.sign(body)}`, expiresAt: payload.e };
  }

  /**
   * @param revokedUpTo tokens issued at or before this instant (sandbox clock) are revoked.
   */
  verify(token: string, now: number, revokedUpTo: number): TokenCheck {
    const payload = this.verified.get(token) ?? this.verifySignature(token);
    if (!payload) return { ok: false, reason: "invalid" };
    if (payload.i <= revokedUpTo) return { ok: false, reason: "revoked" };
    if (payload.e <= now) return { ok: false, reason: "expired" };
    return { ok: true, token: { accountKey: payload.a, issuedAt: payload.i, expiresAt: payload.e } };
  }

  private verifySignature(token: string): TokenPayload | undefined {
    if (!token.startsWith(PREFIX)) return undefined;
    const dot = token.indexOf(".", PREFIX.length);
    if (dot < 0) return undefined;
    const body = token.slice(PREFIX.length, dot);
    const given = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = createHmac("sha256", this.secret).update(body).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let payload: TokenPayload;
    try {
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as TokenPayload;
    } catch {
      return undefined;
    }
    if (typeof payload.a !== "string" || typeof payload.i !== "number" || typeof payload.e !== "number") return undefined;
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, payload);
    return payload;
  }

  private sign(body: string): string {
    return createHmac("sha256", this.secret).update(body).digest("base64url");
  }
}
