import { describe, expect, it } from "vitest";
import { basicAuthorizationHeader, decodeBasicCredentials, encodeCredentialPart } from "@/lib/sandbox/core/basic-credentials";

const basic = (text: string) => `Basic ${Buffer.from(text, "utf8").toString("base64")}`;

describe("decodeBasicCredentials", () => {
  it("round-trips the contract's encoding of every awkward character", () => {
    const secret = "s3cret pass+/=:%&é 東京 🎉 ~!*'()";
    expect(decodeBasicCredentials(basicAuthorizationHeader("key.with-_chars", secret))).toEqual({ kind: "ok", key: "key.with-_chars", secret });
    expect(encodeCredentialPart("a b+c~")).toBe("a%20b%2Bc%7E");
  });

  it("reads + as a space, raw UTF-8 bytes as text, and the scheme case-insensitively", () => {
    expect(decodeBasicCredentials(basic("k:a+b"))).toEqual({ kind: "ok", key: "k", secret: "a b" });
    expect(decodeBasicCredentials(`basic ${Buffer.from("k:é").toString("base64")}`)).toEqual({ kind: "ok", key: "k", secret: "é" });
    expect(decodeBasicCredentials(basic("k:"))).toEqual({ kind: "ok", key: "k", secret: "" });
  });

  it("tells missing from malformed", () => {
    expect(decodeBasicCredentials(undefined)).toEqual({ kind: "missing" });
    expect(decodeBasicCredentials("Digest x")).toEqual({ kind: "missing" });
    for (const header of ["Basic", "Basic ###", "Basic YWJj", basic("k:%"), basic("k:%4"), basic("k:%C3"), basic(":s")]) {
      expect(decodeBasicCredentials(header), header).toEqual({ kind: "malformed" });
    }
  });
});
