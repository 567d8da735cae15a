// A button's size and colour come from buttonClasses alone. Tailwind orders its utilities in the
// stylesheet by property and value, not by their order in `class`, so an override such as
// `buttonClasses("secondary", "px-2 py-1")` lost to the built-in `px-4 py-2` without a word (every
// "small" button in the app was full size). These tests keep it that way.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buttonClasses } from "@/components/ui/button";

/** Utilities that set the same thing; a class list may hold one of each group at most. */
const GROUPS: Record<string, RegExp> = {
  "padding-x": /^px-/,
  "padding-y": /^py-/,
  padding: /^p-/,
  "font size": /^text-(xs|sm|base|lg|xl|\d?xl)$/,
  "font weight": /^font-(thin|light|normal|medium|semibold|bold)$/,
  "text colour": /^text-(white|black|(slate|gray|red|green|amber|brand|blue)-\d+)$/,
  background: /^bg-/,
  shadow: /^shadow/,
  radius: /^rounded/,
};

function clashes(classList: string): string[] {
  const tokens = classList.split(/\s+/).filter((token) => token && !token.includes(":"));
  return Object.entries(GROUPS)
    .filter(([, pattern]) => tokens.filter((token) => pattern.test(token)).length > 1)
    .map(([group]) => group);
}

describe("buttonClasses", () => {
  it("gives every variant and size one value of each property", () => {
    for (const variant of ["primary", "secondary", "danger", "ghost", "ghost-danger"] as const) {
      for (const size of ["md", "sm", "xs"] as const) {
        expect(clashes(buttonClasses(variant, { size })), `${variant} ${size}`).toEqual([]);
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
          const bad = extra.split(/\s+/).filter((token) => Object.values(GROUPS).some((pattern) => pattern.test(token.split(":").pop()!)));
          if (bad.length > 0) offenders.push(`${dir}/${file}: ${bad.join(" ")}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
