// The session cookie read with a key derived once per process (lib/auth/session-token.ts) must
// accept exactly what next-auth writes and nothing else: tokens made by next-auth's own `encode`,
// not a compressed one or another algorithm's, even under the same key.
import { describe, expect, it } from "vitest";
import { createSecretKey, hkdfSync } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { CompactEncrypt, EncryptJWT } from "jose";
import { encode } from "next-auth/jwt";
import { decodeSessionToken } from "@/lib/auth/session-token";

const SECRET = "a session secret of at least thirty-two characters";
const claims = { uid: "user-1", sid: "session-1", sv: 3, sub: "user-1" };

/** Flips one character of a base64url part, keeping it base64url. */
const flip = (token: string, part: number) =>
  token
    .split(".")
    .map((text, at) => (at === part ? `${text[0] === "A" ? "B" : "A"}${text.slice(1)}` : text))
    .join(".");

describe("decodeSessionToken", () => {
  it("reads what next-auth's encode wrote, with the same secret, again and again", async () => {
    const token = await encode({ token: claims, secret: SECRET });
    for (let i = 0; i < 3; i++) expect(await decodeSessionToken(token, SECRET)).toMatchObject(claims);
  });

  it("is null for another secret, then reads the first secret's token again (the key follows the secret)", async () => {
    const token = await encode({ token: claims, secret: SECRET });
    expect(await decodeSessionToken(token, "another secret of at least thirty-two characters")).toBeNull();
    expect(await decodeSessionToken(token, SECRET)).toMatchObject(claims);
  });

  it("is null for a changed header, iv, ciphertext or tag", async () => {
    const token = await encode({ token: claims, secret: SECRET });
    for (const part of [0, 2, 3, 4]) expect(await decodeSessionToken(flip(token, part), SECRET), `part ${part}`).toBeNull();
  });

  it("is null for what is not a token of this shape", async () => {
    for (const token of ["", "not-a-jwt", "a.b.c", "a.b.c.d.e", "....", "ey.J.x.y.z!"]) expect(await decodeSessionToken(token, SECRET), token).toBeNull();
  });

  it("is null for a compressed token or another content algorithm, though sealed with the right key", async () => {
    const key = createSecretKey(Buffer.from(hkdfSync("sha256", SECRET, "", "NextAuth.js Generated Encryption Key", 32)));
    // A DEFLATE-compressed token: the header says so, the payload is raw deflate (jose would inflate it).
    const compressed = await new CompactEncrypt(deflateRawSync(JSON.stringify(claims))).setProtectedHeader({ alg: "dir", enc: "A256GCM", zip: "DEF" }).encrypt(key);
    expect(await decodeSessionToken(compressed, SECRET)).toBeNull();
    // A 32-byte key also fits A128CBC-HS256: refused by name.
    const cbc = await new EncryptJWT(claims).setProtectedHeader({ alg: "dir", enc: "A128CBC-HS256" }).encrypt(key);
    expect(await decodeSessionToken(cbc, SECRET)).toBeNull();
    // The same claims with next-auth's header are read: the two above fail on their shape alone.
    const plain = await new EncryptJWT(claims).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).encrypt(key);
    expect(await decodeSessionToken(plain, SECRET)).toMatchObject(claims);
  });

  it("is null once expired (beyond next-auth's 15 s of tolerance), and not before", async () => {
    const token = await encode({ token: claims, secret: SECRET, maxAge: 60 });
    const now = Date.now() / 1000;
    expect(await decodeSessionToken(token, SECRET, now + 60 + 10)).toMatchObject(claims);
    expect(await decodeSessionToken(token, SECRET, now + 60 + 20)).toBeNull();
  });
});
