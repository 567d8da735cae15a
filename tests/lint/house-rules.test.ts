// The house rules live in eslint.config.mjs (app/ holds routes, components render, the one outbound
// door, button classes, no silent catch, lib/'s layers from eslint/layers.mjs). Lint cannot check two things about itself, which this file does: that each
// rule still fires on a deliberate violation (a rule that is switched off or overridden by a later
// block passes everything), and that the modules the rules name still exist (a rule about a file that
// has moved guards nothing).
import { existsSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { DATA_ACCESS_MODULES, OUTBOUND_DOOR, OUTBOUND_EXCEPTIONS } from "@/eslint.config.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The rules a source would break if it were the file at `file` (which need not exist). */
async function brokenRules(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result!.messages.map((message) => message.ruleId ?? `parse error: ${message.message}`);
}

describe("the rules name modules that exist", () => {
  it.each([OUTBOUND_DOOR, ...Object.values(OUTBOUND_EXCEPTIONS), ...DATA_ACCESS_MODULES.map(([module]) => module)])("%s", (module) => {
    expect(existsSync(path.join(ROOT, module)) || existsSync(path.join(ROOT, `${module}.ts`))).toBe(true);
  });
});

describe("each house rule fires on a violation, and not on the allowed form", () => {
  it("app/ holds route files only", async () => {
    expect(await brokenRules("app/(portal)/team/invite-form.tsx", "export const x = 1;\n")).toEqual(["house/route-files-only"]);
    expect(await brokenRules("app/(portal)/team/page.tsx", "export default function Page() {\n  return null;\n}\n")).toEqual([]);
  });

  it("a component imports no data access (types are fine)", async () => {
    const file = "components/listing/probe.ts";
    for (const source of [
      'import { prisma } from "@/lib/db/prisma";',
      'import { getEmsClient } from "@/lib/ems";',
      'import { loadListing } from "../../lib/listing/load";',
    ]) {
      expect(await brokenRules(file, `${source}\nexport const x = [${source.split(" ")[2]}];\n`), source).toEqual(["no-restricted-imports"]);
    }
    expect(
      await brokenRules(
        file,
        'import type { EmsClient } from "@/lib/ems";\nimport { MAX_IDS } from "@/lib/ems/contract";\nexport const x: EmsClient | number = MAX_IDS;\n',
      ),
    ).toEqual([]);
  });

  it("only the outbound door opens connections", async () => {
    const file = "lib/alerts/probe.ts";
    expect(await brokenRules(file, 'import https from "node:https";\nexport const x = https;\n')).toEqual(["no-restricted-imports"]);
    expect(await brokenRules(file, "export const x = (url: string) => fetch(url);\n")).toEqual(["no-restricted-syntax"]);
    expect(await brokenRules(file, 'export const x = () => import("undici");\n')).toEqual(["no-restricted-syntax"]);
    expect(
      await brokenRules(
        "components/ui/probe.ts",
        'export const x = (q: string) => fetch(`/api/palette/views?q=${q}`);\nimport { isIP } from "node:net";\nexport const y = isIP;\n',
      ),
    ).toEqual([]);
    expect(
      await brokenRules(
        OUTBOUND_EXCEPTIONS.httpServer,
        'import http from "node:http";\nexport const x = http.Server;\nexport const y = () => http.request("http://example.com");\n',
      ),
    ).toEqual(["no-restricted-syntax"]);
  });

  it("no catch drops its error without a look", async () => {
    const file = "lib/alerts/probe.ts";
    expect(await brokenRules(file, "export const x = (p: Promise<number>) => p.catch(() => null);\n")).toEqual(["no-restricted-syntax"]);
    expect(await brokenRules(file, "export const x = (p: Promise<number>) => p.catch((_error) => null);\n")).toContain("no-restricted-syntax");
    expect(await brokenRules("components/ui/probe.ts", "export const x = (p: Promise<number>) => p.catch(() => null);\n")).toEqual(["no-restricted-syntax"]);
    expect(
      await brokenRules(file, "export const x = (p: Promise<number>) => p.catch((error: unknown) => { if (error instanceof RangeError) return null; throw error; });\n"),
    ).toEqual([]);
  });

  it("lib/ is a one-way map of layers, and its features make no cycle", async () => {
    // The kernel may not reach up to a feature; a feature may use only the features it names.
    expect(await brokenRules("lib/errors.ts", 'import { hrefWith } from "@/lib/listing/href";\nexport const x = hrefWith;\n')).toContain("import/no-restricted-paths");
    expect(await brokenRules("lib/listing/words.ts", 'import { listViewTabs } from "@/lib/views/tabs";\nexport const x = listViewTabs;\n')).toContain(
      "import/no-restricted-paths",
    );
    // (A file that exists: import/no-cycle walks the real graph from it.)
    expect(await brokenRules("lib/views/describe.ts", 'import { hrefWith } from "@/lib/listing/href";\nexport const x = hrefWith;\n')).toEqual([]);
  });

  it("a button's size and colour are not overridden by className", async () => {
    const file = "components/ui/probe.tsx";
    const header = 'import { Button, buttonClasses } from "@/components/ui/button";\n';
    expect(await brokenRules(file, `${header}export const x = buttonClasses("secondary", { className: "w-full px-2" });\nexport const y = Button;\n`)).toEqual([
      "no-restricted-syntax",
    ]);
    expect(await brokenRules(file, `${header}export const x = buttonClasses();\nexport const Y = () => <Button className="rounded-full">y</Button>;\n`)).toEqual([
      "no-restricted-syntax",
    ]);
    expect(
      await brokenRules(
        file,
        `${header}export const x = buttonClasses("ghost", { size: "xs", className: "w-full sm:w-auto" });\nexport const Y = () => <Button className="mt-2 sm:hidden">y</Button>;\n`,
      ),
    ).toEqual([]);
  });
});
