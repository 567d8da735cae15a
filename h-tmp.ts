import { datasetFor } from "@/lib/sandbox/data/datasets";
const d = datasetFor({ groups: 100_000, events: 1, seed: 4242 });
const col = d.groups.lowerColumn("name");
const all = col.join("\u0000");
const latin = col.filter((s) => !/[^\u0000-\u00ff]/.test(s)).join("\u0000");
const wide = col.filter((s) => /[^\u0000-\u00ff]/.test(s)).join("\u0000");
console.log("rows latin", col.filter((s) => !/[^\u0000-\u00ff]/.test(s)).length, "chars", all.length, latin.length, wide.length);
const count = (h: string, n: string) => { let c = 0, p = h.indexOf(n); while (p >= 0) { c++; p = h.indexOf(n, p + 1); } return c; };
for (const n of ["sync", "desk", "e", "zürich", "東京"]) {
  let t = performance.now(); let a = 0; for (let i = 0; i < 20; i++) a += count(all, n); const t1 = (performance.now() - t) / 20;
  t = performance.now(); let b = 0; for (let i = 0; i < 20; i++) b += count(latin, n) + count(wide, n); const t2 = (performance.now() - t) / 20;
  t = performance.now(); let c = 0; for (let i = 0; i < 20; i++) for (let j = 0; j < col.length; j++) if (col[j].includes(n)) c++; const t3 = (performance.now() - t) / 20;
  console.log(n, t1.toFixed(2), t2.toFixed(2), t3.toFixed(2), a / 20, b / 20, c / 20);
}
