import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { credentialFingerprint, flushEmsState, forgetCredential, getEmsClient, type EmsClient } from "@/lib/ems";
import { parseCsv } from "@/lib/listing/csv";
import { startExport } from "@/lib/listing/export";
import { failureOf } from "@/lib/listing/load";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { toEmsQuery } from "@/lib/listing/query";
import { DEMO_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { ensureEmsTestEnv } from "../ems/support/env";

/** Export and listing states against the standalone sandbox over real HTTP (and the real DB for tokens). */
ensureEmsTestEnv();

let sandbox: StartedSandbox;
let client: EmsClient;

beforeAll(async () => {
  sandbox = await startAllowedSandbox({ port: 0 });
});
afterAll(async () => {
  await flushEmsState?.();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.admin.reset();
  const fingerprint = credentialFingerprint(sandbox.baseUrl, DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret);
  await forgetCredential(fingerprint);
  client = getEmsClient({ fingerprint, baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

async function everything(search: string) {
  const state = parseListingSearchParams("webhook-groups", new URLSearchParams(search));
  const items: Record<string, unknown>[] = [];
  for await (const page of client.pages("webhook-groups", toEmsQuery(state, { page: 1, perPage: 200 }) as never)) items.push(...(page.items as never[]));
  return items;
}

describe("export", () => {
  it("streams every matching page as JSON, row for row", async () => {
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams("sort=-id&expand=webhooks"));
    const expected = await everything("sort=-id&expand=webhooks");
    const result = await startExport(client, state, "json", { maxRows: 10_000, pageSize: 30 });
    expect(result).toMatchObject({ total: expected.length, matching: expected.length, truncated: false });
    const rows = JSON.parse(await readAll(result.stream)) as Record<string, unknown>[];
    expect(rows).toEqual(expected);
    expect(rows.length).toBeGreaterThan(100);
  });

  it("writes CSV with one line per row and the filters applied", async () => {
    const search = "filter=name%3D*contains*a&sort=name&fields=id,name,notification_emails";
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams(search));
    const expected = await everything(search);
    const result = await startExport(client, state, "csv", { maxRows: 10_000, pageSize: 25 });
    const rows = parseCsv(await readAll(result.stream));
    expect(rows[0]).toEqual(["id", "name", "notification_emails"]);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(expected.map((item) => item.id));
    expect(rows.slice(1).map((r) => r[1].replace(/^'(?=[=+\-@])/, ""))).toEqual(expected.map((item) => item.name));
    expect(rows.slice(1).map((r) => JSON.parse(r[2]))).toEqual(expected.map((item) => item.notification_emails));
  });

  it("stops at the cap and says so", async () => {
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams("sort=id"));
    const result = await startExport(client, state, "json", { maxRows: 45, pageSize: 20 });
    expect(result.truncated).toBe(true);
    expect(result.total).toBe(45);
    const rows = JSON.parse(await readAll(result.stream)) as { id: number }[];
    expect(rows).toHaveLength(45);
    // Three pages of 20 were enough: no page past the cap was asked for.
    const stats = await sandbox.admin.stats();
    expect(stats.apiRequests).toBeLessThanOrEqual(1 + 3 + 1);
  });

  it("stops asking the API when the download is cancelled", async () => {
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams(""));
    const before = (await sandbox.admin.stats()).apiRequests;
    const result = await startExport(client, state, "csv", { maxRows: 10_000, pageSize: 10 });
    const reader = result.stream.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = (await sandbox.admin.stats()).apiRequests;
    expect(after - before).toBeLessThan(5);
  });

  it("turns a rate limit into the seconds to wait", async () => {
    await sandbox.admin.injectFaults({ count: 1, status: 429, retryAfterSeconds: 37, paths: "api" });
    const limited = await client.list("webhook-groups", {}, { waitForRateLimit: false }).catch(failureOf);
    expect(limited).toMatchObject({ kind: "rate-limited", retryAfterSeconds: 37 });
  });
});
