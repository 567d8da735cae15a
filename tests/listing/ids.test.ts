import { describe, expect, it } from "vitest";
import { parseIdList } from "@/lib/listing/ids";

describe("only these ids", () => {
  it("takes commas, spaces, semicolons and new lines, and counts duplicates once", () => {
    expect(parseIdList("1, 2\n3;4  5\r\n2")).toEqual({ ok: true, ids: [1, 2, 3, 4, 5] });
    expect(parseIdList("  ")).toEqual({ ok: true, ids: [] });
  });

  it("says which entry is wrong and why", () => {
    const result = parseIdList("7, x1, 0, 3.0, 4.5, -2, 99999999999999999999");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      "Entry 2 (“x1”) is not a number; ids are positive whole numbers.",
      "Entry 3 (“0”) is not a positive integer; ids start at 1.",
      // 3.0 is a whole number: accepted as 3.
      "Entry 5 (“4.5”) is not a whole number.",
      "Entry 6 (“-2”) is not a positive integer; ids start at 1.",
      "Entry 7 (“99999999999999999999”) is too large to be an id.",
    ]);
  });

  it("allows 100 different ids and refuses 101", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(parseIdList([...hundred, 1, 2].join(","))).toEqual({ ok: true, ids: hundred });
    expect(parseIdList([...hundred, 101].join(","))).toEqual({
      ok: false,
      errors: ["101 different ids were given; at most 100 can be asked for at once."],
    });
  });
});
