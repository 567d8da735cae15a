// Issue 24, finding 8: bidi overrides and invisible characters were shown as sent, so who made a
// change (`updated_by`) or a view's name could pose as another. lib/text/invisible-characters.ts is
// the one definition: removed from shown text, refused in typed names.
import { describe, expect, it } from "vitest";
import { hasInvisibleCharacters, visibleText, visibleTextIn } from "@/lib/text/invisible-characters";

const BIDI = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"];
const INVISIBLE = [
  "\u200B",
  "\u200C",
  "\u200D",
  "\u2060",
  "\uFEFF",
  "\u00AD",
  "\u2062",
  "\u180E",
  "\u3164",
  "\u115F",
  "\u034F",
  "\u{E0041}",
  "\u0000",
  "\u001B",
  "\u007F",
  "\u0085",
];

describe("visibleText", () => {
  it("removes every bidi control: `\\u202Eevil` no longer reads as “live”", () => {
    expect(visibleText("\u202Eevil")).toBe("evil");
    for (const character of BIDI) expect(visibleText(`al${character}ice`), `U+${character.codePointAt(0)!.toString(16)}`).toBe("alice");
  });

  it("removes zero-width and other invisible formatting characters, and control characters", () => {
    for (const character of INVISIBLE) expect(visibleText(`al${character}ice`), `U+${character.codePointAt(0)!.toString(16)}`).toBe("alice");
  });

  it("keeps what is visible: letters of every script, tabs and line breaks, emoji with their joiners and variation selectors", () => {
    for (const text of ["Ünïcödé café", "שלום עולם", "مرحبا", "東京", "line\nbreak\ttab\r\n", "👩‍💻 ❤️ 👍🏽 👨‍👩‍👧", "❤️‍🔥"]) expect(visibleText(text)).toBe(text);
    // A joiner between letters is not an emoji sequence: it hides.
    expect(visibleText("a\u200Db")).toBe("ab");
  });

  it("returns the same string when there is nothing to remove", () => {
    const text = "CRM sync 12";
    expect(visibleText(text)).toBe(text);
  });
});

describe("visibleTextIn", () => {
  it("cleans every string of a parsed value, nested lists and objects included, and keeps the rest", () => {
    const value = { id: 7, name: "\u202Eevil", enabled: true, none: null, list: ["a\u200Bb", 3], nested: { key: "X-\u2066A", value: "v\u2069" }, when: new Date(0) };
    expect(visibleTextIn(value)).toEqual({ id: 7, name: "evil", enabled: true, none: null, list: ["ab", 3], nested: { key: "X-A", value: "v" }, when: new Date(0) });
  });
});

describe("hasInvisibleCharacters (typed text)", () => {
  it("refuses what visibleText would remove, and allows tabs, line breaks and emoji", () => {
    expect(hasInvisibleCharacters("ok\u202Eevil")).toBe(true);
    expect(hasInvisibleCharacters("zero\u200Bwidth")).toBe(true);
    expect(hasInvisibleCharacters("two\nlines\tand 👩‍💻")).toBe(false);
  });
});
