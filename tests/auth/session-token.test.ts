// The session cookie read with a key derived once per process (lib/auth/session-token.ts) must
// accept exactly what next-auth writes and nothing else: tokens made by next-auth's own `encode`.
import { describe, expect, it } from "vitest";
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
    for (let i = 0; i < 3; i++) expect(decodeSessionToken(token, SECRET)).toMatchObject(claims);
  });

  it("is null for another secret, then reads the first secret's token again (the key follows the secret)", async () => {
    const token = await encode({ token: claims, secret: SECRET });
    expect(decodeSessionToken(token, "another secret of at least thirty-two characters")).toBeNull();
    expect(decodeSessionToken(token, SECRET)).toMatchObject(claims);
  });

  it("is null for a changed header, iv, ciphertext or tag", async () => {
    const token = await encode({ token: claims, secret: SECRET });
    for (const part of [0, 2, 3, 4]) expect(decodeSessionToken(flip(token, part), SECRET), `part ${part}`).toBeNull();
  });

  it("is null for what is not a token of this shape", () => {
    for (const token of ["", "not-a-jwt", "a.b.c", "a.b.c.d.e", "....", "ey.J.x.y.z!"]) expect(decodeSessionToken(token, SECRET), token).toBeNull();
  });

  it("is null once expired (beyond next-auth's 15 s of tolerance), and not before", async () => {
    const token = await encode({ token: claims, secret: SECRET, maxAge: 60 });
    const now = Date.now() / 1000;
    expect(decodeSessionToken(token, SECRET, now + 60 + 10)).toMatchObject(claims);
    expect(decodeSessionToken(token, SECRET, now + 60 + 20)).toBeNull();
  });
});
