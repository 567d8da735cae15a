/**
 * `npm run bench:answer-memory`: how much heap the opened
 * shared answers of one large account hold (the 5,000-group account of bench:pages, 2,000 events),
 * beside their ciphertext's length, so lib/ems/opened-answers.ts can size its memo by measurement.
 */
import { randomBytes } from "node:crypto";
import { datasetFor } from "../lib/sandbox/data/datasets";

process.env.CREDENTIAL_ENCRYPTION_KEYS ??= `bench:${randomBytes(32).toString("base64")}`;
const { encryptSecret, decryptSecret } = await import("../lib/crypto/secret-box");
const { sharedRecords } = await import("../lib/ems/opened-answers");

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const dataset = datasetFor({ groups: 5_000, events: 2_000, seed: 5150 });
const pages: string[] = [];
const PER_PAGE = 200;
for (let start = 0; start < dataset.groups.size; start += PER_PAGE) {
  const items = Array.from({ length: Math.min(PER_PAGE, dataset.groups.size - start) }, (_, i) => ({
    ...dataset.groups.row(start + i),
    webhooks: dataset.webhooksOf(start + i),
  }));
  pages.push(JSON.stringify({ items, meta: {}, rateLimit: null }));
}
for (let start = 0; start < dataset.events.size; start += PER_PAGE) {
  const items = Array.from({ length: Math.min(PER_PAGE, dataset.events.size - start) }, (_, i) => dataset.events.row(start + i));
  pages.push(JSON.stringify({ items, meta: {}, rateLimit: null }));
}
const ciphertexts = pages.map((page, i) => encryptSecret(page, `scope:${i}`));
pages.length = 0;
const ciphertextLength = ciphertexts.reduce((sum, c) => sum + c.length, 0);
const before = heap();
const started = performance.now();
// Opened as the answer cache opens them (lib/ems/answer-cache.ts `decode`): parsed, the records kept through `sharedRecords`.
const opened = ciphertexts.map((c, i) => {
  const plaintext = decryptSecret(c, `scope:${i}`);
  const parsed = JSON.parse(plaintext) as { items: unknown[] };
  return sharedRecords(plaintext.slice(9, plaintext.lastIndexOf(',"meta":')), parsed.items);
});
const openMs = performance.now() - started;
const after = heap();
console.log(
  `${ciphertexts.length} answers, ciphertext ${(ciphertextLength / 1e6).toFixed(1)} MB; opened, they hold ${((after - before) / 1e6).toFixed(1)} MB of heap ` +
    `(${((after - before) / ciphertextLength).toFixed(2)} bytes per ciphertext character), opened in ${openMs.toFixed(0)} ms`,
);
void opened;
