// A `.catch(() => …)` drops the error it catches without a look: a key rotation once paused change
// history as "removed their API credentials" that way (issue 25). Each catch names the error it
// handles or logs what it caught.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const SKIP = ["lib/generated/"];
/** A catch whose handler takes no error: it cannot tell one failure from another. */
const CATCH_WITHOUT_LOOKING = /\.catch\(\s*(\(\s*\)|_\w*)\s*=>/;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (SKIP.some((prefix) => `${relative}/`.startsWith(prefix))) return [];
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) ? [relative] : [];
  });
}

describe("no silent catch", () => {
  it("no `.catch(() => …)` in lib/, app/ or components/", () => {
    const offenders = ["lib", "app", "components"]
      .flatMap(sourceFiles)
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), "utf8")
          .split("\n")
          .map((line, index) => (CATCH_WITHOUT_LOOKING.test(line) ? `${file}:${index + 1}` : null))
          .filter((hit): hit is string => hit !== null),
      );
    expect(offenders).toEqual([]);
  });
});
