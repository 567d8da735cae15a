// Run by `npm install` (postinstall, after `prisma generate`): one change to Prisma's client runtime
// that halves what the database client holds in the heap. Plain JavaScript, no dependencies.
//
// Why: the client decodes its "parameterization graph" (which argument of which query is a value to
// parameterize; built from the schema) when it is constructed, into one object of edges per type,
// keyed by the index of a field's name in a table of ~1,600 names: `edges[fieldIndex] = edge`.
// V8 stores such integer keys as an array's elements, and a new object's elements stay a plain
// array (holes included) up to 5,000 slots: each of the 2,762 types' objects was an array as long
// as the highest name index it used, 9.9 MB of holes for ~22,000 edges, of the 256 MB heap
// `npm start` gives the portal (a heap snapshot of `new PrismaClient()`, 11.1 MB in all). A Map
// per type holds the same edges in ~1 MB (tests/db/prisma-runtime-patch.db.test.ts measures it).
// The runtime reads the edges in two places only (`inputEdge`, `outputEdge`); those read the Map.
//
// Each change names the exact text it replaces in the pinned version (package.json pins @prisma/client);
// a Prisma upgrade that moves or renames that text stops the install with a message instead of
// silently leaving the runtime unpatched: check whether the new version still needs it, then update
// or drop it. Running it twice changes nothing.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PATCHED_VERSION = "7.10.0";

/** [what the runtime says, what it says after the patch, how many times it says it]. */
export const REPLACEMENTS = [
  ["let i=this.#i(),o={};for(let s=0;s<i;s++){let a=this.#i()", "let i=this.#i(),o=new Map;for(let s=0;s<i;s++){let a=this.#i()", 2],
  ["o[a]=S}r.push({edges:o})", "o.set(a,S)}r.push({edges:o})", 1],
  ["o[a]=P}r.push({edges:o})", "o.set(a,P)}r.push({edges:o})", 1],
  ["let o=n.edges[i];", "let o=n.edges.get(i);", 2],
];

const occurrences = (text, part) => text.split(part).length - 1;

/** The runtime's text patched, or unchanged if it is patched already; throws if it is neither. */
export function patchedRuntime(text, file = "the runtime") {
  const patched = REPLACEMENTS.every(([before, after, count]) => occurrences(text, before) === 0 && occurrences(text, after) === count);
  if (patched) return text;
  let result = text;
  for (const [before, after, count] of REPLACEMENTS) {
    const found = occurrences(result, before);
    if (found !== count) {
      throw new Error(
        `scripts/db/prisma-runtime-patch.mjs: ${file} has ${found} (not ${count}) of ${JSON.stringify(before)}. ` +
          `Prisma's runtime changed: see the comment at the top of that script.`,
      );
    }
    result = result.split(before).join(after);
  }
  return result;
}

/** Patches @prisma/client's runtime files in `nodeModules`; returns the files it changed. */
export function patchPrismaRuntime(nodeModules) {
  const clientDir = path.join(nodeModules, "@prisma", "client");
  const { version } = JSON.parse(fs.readFileSync(path.join(clientDir, "package.json"), "utf8"));
  if (version !== PATCHED_VERSION) {
    throw new Error(`scripts/db/prisma-runtime-patch.mjs patches @prisma/client ${PATCHED_VERSION}, not ${version}: ` + `see the comment at the top of that script.`);
  }
  const changed = [];
  for (const name of ["client.js", "client.mjs"]) {
    const file = path.join(clientDir, "runtime", name);
    const text = fs.readFileSync(file, "utf8");
    const patched = patchedRuntime(text, `@prisma/client/runtime/${name}`);
    if (patched !== text) {
      fs.writeFileSync(file, patched);
      changed.push(file);
    }
  }
  return changed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
  const changed = patchPrismaRuntime(path.join(root, "node_modules"));
  if (changed.length > 0) console.log(`Patched Prisma's runtime (its parameterization graph's edges as Maps): ${changed.length} files.`);
}
