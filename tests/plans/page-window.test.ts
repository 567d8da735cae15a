import { describe, expect, it } from "vitest";
import { pageWindow } from "@/lib/plans/page-window";

describe("pageWindow", () => {
  it("shows the first, the last and two either side of the current page, a gap of one page as that page", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 11)).toEqual([1, 2, 3, null, 11]);
    expect(pageWindow(5, 11)).toEqual([1, 2, 3, 4, 5, 6, 7, null, 11]);
    expect(pageWindow(6, 11)).toEqual([1, null, 4, 5, 6, 7, 8, null, 11]);
    expect(pageWindow(11, 11)).toEqual([1, null, 9, 10, 11]);
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4]);
  });
});
