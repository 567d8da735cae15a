// A button's size and colour come from buttonClasses alone. Tailwind orders its utilities in the
// stylesheet by property and value, not by their order in `class`, so an override such as
// `buttonClasses("secondary", "px-2 py-1")` lost to the built-in `px-4 py-2` without a word (every
// "small" button in the app was full size). These tests keep it that way.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
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

  it("is never given a size or colour by a caller (it would not win)", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const offenders: string[] = [];
    for (const dir of ["app", "components"]) {
      for (const file of readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })) {
        if (!file.endsWith(".tsx")) continue;
        const source = readFileSync(path.join(root, dir, file), "utf8");
        const extras = [
          ...[...source.matchAll(/buttonClasses\([^)]*className:\s*"([^"]*)"/g)].map((match) => match[1]!),
          ...[...source.matchAll(/buttonClasses\("[a-z-]+",\s*"([^"]*)"/g)].map((match) => match[1]!),
          ...[...source.matchAll(/<Button\b[^>]*?\sclassName="([^"]*)"/g)].map((match) => match[1]!),
        ];
        for (const extra of extras) {
          // What the caller adds must not set anything a button's own classes set.
          const bad = utilityClashes(`${buttonClasses("secondary")} ${extra}`);
          if (bad.length > 0) offenders.push(`${dir}/${file}: "${extra}" (${bad.join(", ")})`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
