// TOTP code windows, single use by step, and recovery codes (lib/auth/totp.ts): no database.
import { describe, expect, it } from "vitest";
import {
  RECOVERY_CODE_COUNT,
  TOTP_PERIOD_SECONDS,
  groupSecret,
  hashRecoveryCode,
  matchingTotpStep,
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  totpCodeAt,
  totpStep,
  totpUri,
} from "@/lib/auth/totp";

// RFC 6238, appendix B: the ASCII secret "12345678901234567890", SHA-1; the 8-digit codes' last six.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const at = (seconds: number) => seconds * 1000;

describe("TOTP codes", () => {
  it("computes RFC 6238's test vectors", () => {
    expect(totpCodeAt(RFC_SECRET, totpStep(at(59)))).toBe("287082");
    expect(totpCodeAt(RFC_SECRET, totpStep(at(1111111109)))).toBe("081804");
    expect(totpCodeAt(RFC_SECRET, totpStep(at(1234567890)))).toBe("005924");
    expect(totpCodeAt(RFC_SECRET, totpStep(at(2000000000)))).toBe("279037");
  });

  it("accepts the code of the current step and of one step either side, and nothing further", () => {
    const secret = newTotpSecret();
    const now = Date.now();
    const step = totpStep(now);
    for (const offset of [-1, 0, 1]) expect(matchingTotpStep(secret, totpCodeAt(secret, step + offset), { at: now })).toBe(step + offset);
    for (const offset of [-3, -2, 2, 3]) {
      const code = totpCodeAt(secret, step + offset);
      // A code of a far step may by chance equal one inside the window (one in a million): skip that case.
      const collides = [-1, 0, 1].some((inside) => totpCodeAt(secret, step + inside) === code);
      if (!collides) expect(matchingTotpStep(secret, code, { at: now })).toBeNull();
    }
  });

  it("refuses a code whose step was used, or one older than the last used (the replay rule)", () => {
    const secret = newTotpSecret();
    const now = Date.now();
    const step = totpStep(now);
    const code = totpCodeAt(secret, step);
    expect(matchingTotpStep(secret, code, { at: now, lastUsedStep: step - 1 })).toBe(step);
    expect(matchingTotpStep(secret, code, { at: now, lastUsedStep: step })).toBeNull();
    expect(matchingTotpStep(secret, totpCodeAt(secret, step - 1), { at: now, lastUsedStep: step })).toBeNull();
    expect(matchingTotpStep(secret, totpCodeAt(secret, step + 1), { at: now, lastUsedStep: step })).toBe(step + 1);
  });

  it("reads spaces and a dash in a typed code, and refuses anything that is not six digits", () => {
    const secret = newTotpSecret();
    const now = Date.now();
    const code = totpCodeAt(secret, totpStep(now));
    expect(matchingTotpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, { at: now })).toBe(totpStep(now));
    expect(matchingTotpStep(secret, `${code.slice(0, 3)}-${code.slice(3)}`, { at: now })).toBe(totpStep(now));
    for (const typed of ["", "12345", "1234567", "abcdef", `${code}0`, " "]) expect(matchingTotpStep(secret, typed, { at: now })).toBeNull();
  });

  it("stays valid across a step boundary within the window", () => {
    const secret = newTotpSecret();
    const boundary = (totpStep() + 1) * TOTP_PERIOD_SECONDS * 1000;
    const typedJustBefore = totpCodeAt(secret, totpStep(boundary - 1000));
    expect(matchingTotpStep(secret, typedJustBefore, { at: boundary + 1000 })).toBe(totpStep(boundary - 1000));
  });

  it("makes 160-bit secrets and an otpauth URI an app reads", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, "ana@example.test"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("issuer")).toBe("EMS Portal");
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(uri.searchParams.get("period")).toBe("30");
    expect(groupSecret("ABCDEFGHIJ")).toBe("ABCD EFGH IJ");
  });
});

describe("recovery codes", () => {
  it("makes ten different codes of 80 random bits, written xxxx-xxxx-xxxx-xxxx", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
  });

  it("reads a typed code whatever its case, spaces and dashes, and Crockford's look-alikes", () => {
    expect(normalizeRecoveryCode("AB12-CD34-EF56-GH78")).toBe("ab12cd34ef56gh78");
    expect(normalizeRecoveryCode(" ab12 cd34 ef56 gh78 ")).toBe("ab12cd34ef56gh78");
    expect(normalizeRecoveryCode("0O1I-lL00-0000-0000")).toBe("0011110000000000");
    expect(normalizeRecoveryCode("ab12-cd34-ef56")).toBeNull();
    expect(normalizeRecoveryCode("ab12-cd34-ef56-gh7u")).toBeNull();
    expect(normalizeRecoveryCode("ab12-cd34-ef56-gh78-0000")).toBeNull();
  });

  it("stores a SHA-256 of the person and the canonical code: the same for every spelling, different per person, not the code", () => {
    const [code] = newRecoveryCodes(1);
    const hash = hashRecoveryCode("user-1", code!);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(code!.replace(/-/g, ""));
    expect(hashRecoveryCode("user-1", code!.toUpperCase().replace(/-/g, " "))).toBe(hash);
    expect(hashRecoveryCode("user-2", code!)).not.toBe(hash);
    expect(() => hashRecoveryCode("user-1", "not a code")).toThrow();
  });
});
