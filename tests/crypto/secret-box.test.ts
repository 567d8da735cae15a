import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  activeKeyId,
  ciphertextKeyId,
  decryptSecret,
  DecryptionError,
  encryptSecret,
  KeyConfigurationError,
  keyIds,
  needsReencryption,
  parseKeyRing,
  reencryptSecret,
  secretAad,
} from "@/lib/crypto/secret-box";

const key = () => randomBytes(32).toString("base64");
let saved: string | undefined;

beforeEach(() => {
  saved = process.env.CREDENTIAL_ENCRYPTION_KEYS;
  process.env.CREDENTIAL_ENCRYPTION_KEYS = `k1:${key()}`;
});
afterEach(() => {
  if (saved === undefined) delete process.env.CREDENTIAL_ENCRYPTION_KEYS;
  else process.env.CREDENTIAL_ENCRYPTION_KEYS = saved;
});

describe("secret box", () => {
  const aad = secretAad("ApiCredential", "user_1", "secretCiphertext");

  it("round-trips any text in the v1:<kid>:<iv>:<ct+tag> format", () => {
    for (const plaintext of ["", "s3cret pass+/=:%&é", "🚀".repeat(500), "a:b:c"]) {
      const ciphertext = encryptSecret(plaintext, aad);
      expect(ciphertext).toMatch(/^v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
      expect(decryptSecret(ciphertext, aad)).toBe(plaintext);
    }
  });

  it("uses a fresh 96-bit IV every time", () => {
    const ivs = new Set(Array.from({ length: 200 }, () => encryptSecret("same", aad).split(":")[2]));
    expect(ivs.size).toBe(200);
    expect(Buffer.from([...ivs][0], "base64url")).toHaveLength(12);
  });

  it("binds the ciphertext to its row and field", () => {
    const ciphertext = encryptSecret("secret", aad);
    expect(() => decryptSecret(ciphertext, secretAad("ApiCredential", "user_2", "secretCiphertext"))).toThrow(DecryptionError);
    expect(() => decryptSecret(ciphertext, secretAad("ApiCredential", "user_1", "keyCiphertext"))).toThrow(DecryptionError);
  });

  it("refuses a tampered ciphertext, tag or IV instead of returning garbage", () => {
    const ciphertext = encryptSecret("secret value", aad);
    const [v, kid, iv, body] = ciphertext.split(":");
    const flip = (text: string, index: number) => {
      const bytes = Buffer.from(text, "base64url");
      bytes[index] ^= 1;
      return bytes.toString("base64url");
    };
    expect(() => decryptSecret([v, kid, iv, flip(body, 0)].join(":"), aad)).toThrow(DecryptionError);
    expect(() => decryptSecret([v, kid, iv, flip(body, Buffer.from(body, "base64url").length - 1)].join(":"), aad)).toThrow(DecryptionError);
    expect(() => decryptSecret([v, kid, flip(iv, 3), body].join(":"), aad)).toThrow(DecryptionError);
    expect(() => decryptSecret("plaintext", aad)).toThrow(/not a v1 ciphertext/);
    expect(() => decryptSecret("v1:k1:abc", aad)).toThrow(DecryptionError);
    expect(() => decryptSecret("v1:k1:%%%:abc", aad)).toThrow(DecryptionError);
  });

  it("refuses the kid being swapped for another key of the ring", () => {
    const k1 = process.env.CREDENTIAL_ENCRYPTION_KEYS!.split(":")[1];
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `k1:${k1},k2:${k1}`;
    const ciphertext = encryptSecret("secret", aad);
    expect(() => decryptSecret(ciphertext.replace("v1:k1:", "v1:k2:"), aad)).toThrow(DecryptionError);
  });

  it("names a key that is no longer in the ring", () => {
    const ciphertext = encryptSecret("secret", aad);
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `k2:${key()}`;
    expect(() => decryptSecret(ciphertext, aad)).toThrow(/key "k1", which is not in CREDENTIAL_ENCRYPTION_KEYS/);
  });

  it("rotates: the first key encrypts, every key decrypts, needsReencryption tells the old ones", () => {
    const oldKey = process.env.CREDENTIAL_ENCRYPTION_KEYS!;
    const old = encryptSecret("rotate me", aad);
    expect(needsReencryption(old)).toBe(false);
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `k2:${key()},${oldKey}`;
    expect(activeKeyId()).toBe("k2");
    expect(keyIds()).toEqual(["k2", "k1"]);
    expect(needsReencryption(old)).toBe(true);
    expect(decryptSecret(old, aad)).toBe("rotate me");
    const rotated = reencryptSecret(old, aad);
    expect(ciphertextKeyId(rotated)).toBe("k2");
    expect(needsReencryption(rotated)).toBe(false);
    expect(decryptSecret(rotated, aad)).toBe("rotate me");
    expect(needsReencryption("not a ciphertext")).toBe(true);
    expect(ciphertextKeyId("not a ciphertext")).toBeNull();
  });
});

describe("key ring configuration", () => {
  it("explains a missing variable, naming it and how to make a key", () => {
    delete process.env.CREDENTIAL_ENCRYPTION_KEYS;
    expect(() => encryptSecret("x", "aad")).toThrow(KeyConfigurationError);
    try {
      encryptSecret("x", "aad");
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain("CREDENTIAL_ENCRYPTION_KEYS is not set");
      expect(message).toContain(`node -e "console.log('k1:'+require('crypto').randomBytes(32).toString('base64'))"`);
    }
  });

  it.each([
    ["", /is not set/],
    ["  ,  ", /holds no key/],
    [`${randomBytes(32).toString("base64")}`, /no "kid:" prefix/],
    ["k1:not base64!", /is not base64/],
    [`k1:${randomBytes(16).toString("base64")}`, /16 bytes; AES-256 needs exactly 32/],
    [`k 1:${randomBytes(32).toString("base64")}`, /invalid key id/],
    [`k1:${randomBytes(32).toString("base64")},k1:${randomBytes(32).toString("base64")}`, /twice/],
  ])("rejects %j", (value, message) => {
    expect(() => parseKeyRing(value)).toThrow(message);
  });

  it("accepts standard and URL-safe base64 and spaces around entries", () => {
    const bytes = randomBytes(32);
    const ring = parseKeyRing(` a:${bytes.toString("base64")} , b_2:${bytes.toString("base64url")} `);
    expect(ring.activeKeyId).toBe("a");
    expect(ring.keys.get("a")).toEqual(bytes);
    expect(ring.keys.get("b_2")).toEqual(bytes);
  });
});
