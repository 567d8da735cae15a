/**
 * `node --max-old-space-size=8000 --import tsx bench/heap-summary.ts <file.heapsnapshot> [top]`: what
 * a heap snapshot (bench:memory --heap-snapshots) holds, by kind of object: self size summed per
 * node type and name (strings by their first characters), largest first. Not a dominator tree: a
 * first look at where a heap's megabytes are, before opening the snapshot in DevTools.
 */
import fs from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: heap-summary.ts <file.heapsnapshot> [top]");
const top = Number(topArg ?? 40);
const snapshot = JSON.parse(fs.readFileSync(file, "utf8")) as {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
};
const fields = snapshot.snapshot.meta.node_fields;
const types = snapshot.snapshot.meta.node_types[0];
const width = fields.length;
const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((field) => fields.indexOf(field));
const totals = new Map<string, { size: number; count: number }>();
let all = 0;
for (let i = 0; i < snapshot.nodes.length; i += width) {
  const type = types[snapshot.nodes[i + typeAt]];
  const size = snapshot.nodes[i + sizeAt];
  all += size;
  const name = snapshot.strings[snapshot.nodes[i + nameAt]] ?? "";
  const key =
    type === "string" || type === "concatenated string" || type === "sliced string"
      ? `${type}: ${name.slice(0, 40).replace(/\s+/g, " ")}…`
      : `${type}: ${name.slice(0, 60)}`;
  const entry = totals.get(key) ?? { size: 0, count: 0 };
  entry.size += size;
  entry.count++;
  totals.set(key, entry);
}
const byType = new Map<string, number>();
for (const [key, { size }] of totals) byType.set(key.split(":")[0], (byType.get(key.split(":")[0]) ?? 0) + size);
console.log(`${(all / 1e6).toFixed(1)} MB in ${snapshot.nodes.length / width} objects`);
console.table([...byType].sort((a, b) => b[1] - a[1]).map(([type, size]) => ({ type, MB: (size / 1e6).toFixed(1) })));
console.table(
  [...totals]
    .sort((a, b) => b[1].size - a[1].size)
    .slice(0, top)
    .map(([key, { size, count }]) => ({ what: key, MB: (size / 1e6).toFixed(2), count })),
);
