import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { basicAuthorization, credentialFingerprint, encodeCredentialPart } from "@/lib/ems/credentials";

describe("encodeCredentialPart (docs/ems-api.md §2)", () => {
  it("keeps A-Z a-z 0-9 - _ . and percent-encodes every other UTF-8 byte", () => {
    expect(encodeCredentialPart("AZaz09-_.")).toBe("AZaz09-_.");
    expect(encodeCredentialPart("s3cret pass+/=:%&é")).toBe("s3cret%20pass%2B%2F%3D%3A%25%26%C3%A9");
    expect(encodeCredentialPart("~*'()!")).toBe("%7E%2A%27%28%29%21");
    expect(encodeCredentialPart("🚀")).toBe("%F0%9F%9A%80");
  });
});

describe("basicAuthorization", () => {
  it("is Base64 of <encoded key>:<encoded secret>", () => {
    const header = basicAuthorization("ems_demo_key", "s3cret pass+/=:%&é");
    expect(header.startsWith("Basic ")).toBe(true);
    expect(Buffer.from(header.slice(6), "base64").toString("utf8")).toBe("ems_demo_key:s3cret%20pass%2B%2F%3D%3A%25%26%C3%A9");
  });

  it("survives a key with a colon: the first colon still splits key from secret", () => {
    const decoded = Buffer.from(basicAuthorization("a:b", "c:d").slice(6), "base64").toString();
    expect(decoded).toBe("a%3Ab:c%3Ad");
    expect(decoded.indexOf(":")).toBe(5);
  });
});

describe("credentialFingerprint", () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.NEXTAUTH_SECRET;
    process.env.NEXTAUTH_SECRET = "test-server-secret-of-32-characters";
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.NEXTAUTH_SECRET;
    else process.env.NEXTAUTH_SECRET = saved;
  });

  it("is a stable hex HMAC that changes with any part and with the server secret", () => {
    const a = credentialFingerprint("https://api.example.com/", "key", "secret");
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(credentialFingerprint("https://API.example.com", "key", "secret")).toBe(a);
    expect(credentialFingerprint("https://api.example.com", "key", "secret2")).not.toBe(a);
    expect(credentialFingerprint("https://api.example.com", "key2", "secret")).not.toBe(a);
    expect(credentialFingerprint("https://other.example.com", "key", "secret")).not.toBe(a);
    // No ambiguity between where the key ends and the secret starts.
    expect(credentialFingerprint("https://api.example.com", "ke", "ysecret")).not.toBe(a);
    expect(a).not.toContain("secret");
    process.env.NEXTAUTH_SECRET = "another-server-secret-of-32-characters";
    expect(credentialFingerprint("https://api.example.com", "key", "secret")).not.toBe(a);
  });

  it("explains a missing server secret", () => {
    delete process.env.NEXTAUTH_SECRET;
    const fallback = process.env.EMS_FINGERPRINT_SECRET;
    delete process.env.EMS_FINGERPRINT_SECRET;
    try {
      expect(() => credentialFingerprint("https://api.example.com", "k", "s")).toThrow(/NEXTAUTH_SECRET/);
    } finally {
      if (fallback !== undefined) process.env.EMS_FINGERPRINT_SECRET = fallback;
    }
  });
});
