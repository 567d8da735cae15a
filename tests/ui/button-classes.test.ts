// A button's size and colour come from buttonClasses alone. Tailwind orders its utilities in the
// stylesheet by property and value, not by their order in `class`, so an override such as
// `buttonClasses("secondary", "px-2 py-1")` lost to the built-in `px-4 py-2` without a word (every
// "small" button in the app was full size). Callers' className is checked by a lint rule
// (eslint.config.mjs, "Button classes"); this checks what lint cannot: the classes buttonClasses makes.
import { describe, expect, it } from "vitest";
import { buttonClasses } from "@/components/ui/button";
import { utilityClashes } from "./utility-clashes";

describe("buttonClasses", () => {
  it("gives every variant and size one value of each property", () => {
    for (const variant of ["primary", "secondary", "danger", "ghost", "ghost-danger"] as const) {
      for (const size of ["md", "sm", "xs"] as const) {
        expect(utilityClashes(buttonClasses(variant, { size })), `${variant} ${size}`).toEqual([]);
      }
    }
    expect(buttonClasses("ghost", { size: "xs" })).toContain("px-2.5 py-1");
    expect(buttonClasses("ghost-danger")).toContain("text-red-700");
  });
});
