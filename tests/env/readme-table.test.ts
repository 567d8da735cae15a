import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_VARIABLES, TOOLING_VARIABLES } from "@/lib/env";

/** The first column of the table under README.md's "## Configuration" heading. */
function documentedVariables(): string[] {
  const readme = readFileSync(path.join(process.cwd(), "README.md"), "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith("Configuration\n"));
  if (!section) throw new Error('README.md has no "## Configuration" section');
  return section
    .split("\n")
    .map((line) => /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe("README.md's configuration table", () => {
  const documented = documentedVariables();
  const known = [...SERVER_VARIABLES, ...TOOLING_VARIABLES];

  it("lists every variable lib/env.ts knows", () => {
    expect(known.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it("lists no variable lib/env.ts does not know, and none twice", () => {
    expect(documented.filter((name) => !(known as string[]).includes(name))).toEqual([]);
    expect(documented.filter((name, index) => documented.indexOf(name) !== index)).toEqual([]);
  });

  it("keeps the server's and the tooling's variables apart", () => {
    expect(SERVER_VARIABLES.filter((name) => (TOOLING_VARIABLES as string[]).includes(name))).toEqual([]);
  });
});
