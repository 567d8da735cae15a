import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { credentialFingerprint, flushEmsState, forgetCredential, getEmsClient, type EmsClient } from "@/lib/ems";
import { parseCsv } from "@/lib/csv";
import { startExport, type ExportOptions } from "@/lib/listing/export";
import { collectExport, type ExportEvent } from "@/lib/listing/export-events";
import { HIDDEN_VALUE } from "@/lib/listing/header-values";
import { failureOf } from "@/lib/ems-access/shared-read";
import { loadListing } from "@/lib/listing/load";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { toEmsQuery } from "@/lib/listing/query";
import { DEMO_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { ensureEmsTestEnv } from "../ems/support/env";
import { createTeam } from "../teams/fixtures";

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
  return (await collectExport(stream)).file;
}

/** The options of a test export: every header value as it is unless a test says otherwise. */
function options(overrides: Partial<ExportOptions> = {}): ExportOptions {
  return { maxRows: 10_000, maxSeconds: 60, filename: "test.csv", includeHeaderValues: true, ...overrides };
}

const kinds = (events: ExportEvent[]) => events.map((event) => event.type);

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
    const result = await startExport(client, state, "json", options({ pageSize: 30 }));
    const { events, file } = await collectExport(result.stream);
    expect(events[0]).toMatchObject({ type: "start", total: expected.length, matching: expected.length, truncated: false, format: "json", filename: "test.csv" });
    expect(events.at(-1)).toEqual({ type: "end", rows: expected.length });
    const rows = JSON.parse(file) as Record<string, unknown>[];
    expect(rows).toEqual(expected);
    expect(rows.length).toBeGreaterThan(100);
  });

  it("writes CSV with one line per row and the filters applied", async () => {
    const search = "filter=name%3D*contains*a&sort=name&fields=id,name,notification_emails";
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams(search));
    const expected = await everything(search);
    const result = await startExport(client, state, "csv", options({ pageSize: 25 }));
    const rows = parseCsv(await readAll(result.stream));
    expect(rows[0]).toEqual(["id", "name", "notification_emails"]);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(expected.map((item) => item.id));
    expect(rows.slice(1).map((r) => r[1].replace(/^'(?=[=+\-@])/, ""))).toEqual(expected.map((item) => item.name));
    expect(rows.slice(1).map((r) => JSON.parse(r[2]))).toEqual(expected.map((item) => item.notification_emails));
  });

  it("stops at the cap and says so", async () => {
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams("sort=id"));
    const result = await startExport(client, state, "json", options({ maxRows: 45, pageSize: 20 }));
    const { events, file } = await collectExport(result.stream);
    expect(events[0]).toMatchObject({ type: "start", truncated: true, total: 45 });
    const rows = JSON.parse(file) as { id: number }[];
    expect(rows).toHaveLength(45);
    // Three pages of 20 were enough: no page past the cap was asked for.
    const stats = await sandbox.admin.stats();
    expect(stats.apiRequests).toBeLessThanOrEqual(1 + 3 + 1);
  });

  it("stops asking the API when the download is cancelled", async () => {
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams(""));
    const before = (await sandbox.admin.stats()).apiRequests;
    let finished = 0;
    const result = await startExport(client, state, "csv", options({ pageSize: 10, onFinish: () => void finished++ }));
    const reader = result.stream.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = (await sandbox.admin.stats()).apiRequests;
    expect(after - before).toBeLessThan(5);
    // …and releases its slot, once.
    expect(finished).toBe(1);
  });

  it("releases its slot when the request ends before the first page came (the browser gave up)", async () => {
    await sandbox.admin.injectFaults({ count: 1, delayMs: 3_000, paths: "api" });
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams(""));
    const request = new AbortController();
    let finished = 0;
    setTimeout(() => request.abort(), 200);
    const started = Date.now();
    await expect(startExport(client, state, "csv", options({ signal: request.signal, firstPageWithinMs: 1_000, onFinish: () => void finished++ }))).rejects.toBeDefined();
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(finished).toBe(1);
  });

  it("never calls the API when the browser gave up before the export began (a loaded server), and releases its slot", async () => {
    await sandbox.admin.injectFaults({ count: 1, delayMs: 3_000, paths: "api" });
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams(""));
    const request = new AbortController();
    request.abort();
    const before = (await sandbox.admin.stats()).apiRequests;
    let finished = 0;
    const started = Date.now();
    await expect(startExport(client, state, "csv", options({ signal: request.signal, firstPageWithinMs: 1_000, onFinish: () => void finished++ }))).rejects.toMatchObject(
      { name: "AbortError" },
    );
    expect(Date.now() - started).toBeLessThan(500);
    expect(finished).toBe(1);
    expect((await sandbox.admin.stats()).apiRequests).toBe(before);
  });

  it("hides webhook header values unless asked for, in CSV and JSON, the webhooks' own included", async () => {
    const search = "expand=webhooks&sort=id";
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams(search));
    const expected = await everything(search);
    const withValues = expected.filter((item) => (item.headers as unknown[]).length > 0);
    expect(withValues.length).toBeGreaterThan(10);
    const secretValues = withValues.flatMap((item) => (item.headers as { value: string }[]).map((h) => h.value)).filter((v) => v.length > 6);

    const hidden = await collectExport((await startExport(client, state, "json", options({ includeHeaderValues: false }))).stream);
    expect(hidden.events[0]).toMatchObject({ type: "start", headerValues: "hidden" });
    const rows = JSON.parse(hidden.file) as { id: number; headers: { key: string; value: string }[]; webhooks: { headers?: { value: string }[] }[] }[];
    expect(rows.map((row) => row.id)).toEqual(expected.map((item) => item.id));
    for (const [index, row] of rows.entries()) {
      // The names stay (which group sends which header); every value is hidden.
      expect(row.headers.map((h) => h.key)).toEqual((expected[index].headers as { key: string }[]).map((h) => h.key));
      for (const header of [...row.headers, ...row.webhooks.flatMap((w) => w.headers ?? [])]) expect(header.value).toBe(HIDDEN_VALUE);
    }
    const csv = await readAll((await startExport(client, state, "csv", options({ includeHeaderValues: false }))).stream);
    for (const value of secretValues) {
      expect(hidden.file).not.toContain(value);
      expect(csv).not.toContain(value);
    }

    const included = await collectExport((await startExport(client, state, "json", options({ includeHeaderValues: true }))).stream);
    expect(included.events[0]).toMatchObject({ headerValues: "included" });
    expect(JSON.parse(included.file)).toEqual(expected);
  });

  it("never writes a webhook's header values in the webhooks export, even when asked", async () => {
    const state = parseListingSearchParams("webhooks", new URLSearchParams("fields=id,name,headers&sort=id"));
    const direct = await client.listWebhooks({ fields: ["id", "headers"], sort: [{ field: "id", direction: "asc" }], perPage: 200 });
    const secretValues = direct.items.flatMap((hook) => (hook.headers ?? []).map((h) => h.value)).filter((v) => v.length > 6);
    expect(secretValues.length).toBeGreaterThan(5);
    for (const includeHeaderValues of [false, true]) {
      const json = await collectExport((await startExport(client, state, "json", options({ includeHeaderValues, maxRows: 200 }))).stream);
      const csv = await readAll((await startExport(client, state, "csv", options({ includeHeaderValues, maxRows: 200 }))).stream);
      const rows = JSON.parse(json.file) as { headers: { key: string; value: string }[] }[];
      expect(rows.flatMap((row) => row.headers).every((header) => header.value === HIDDEN_VALUE)).toBe(true);
      for (const value of secretValues) {
        expect(json.file).not.toContain(value);
        expect(csv).not.toContain(value);
      }
    }
  });

  it("keeps talking while the API is slow: heartbeats before the first page, then the file", async () => {
    await sandbox.admin.injectFaults({ count: 1, delayMs: 1_500, paths: "api" });
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams("sort=id"));
    const started = Date.now();
    const result = await startExport(client, state, "csv", options({ heartbeatMs: 200, firstPageWithinMs: 100 }));
    // Answered before the first page came: the wait happens inside the stream.
    expect(Date.now() - started).toBeLessThan(1_000);
    const { events, file } = await collectExport(result.stream);
    const firstStart = kinds(events).indexOf("start");
    expect(
      kinds(events)
        .slice(0, firstStart)
        .every((kind) => kind === "heartbeat"),
    ).toBe(true);
    expect(firstStart).toBeGreaterThanOrEqual(3);
    expect(events[0]).toMatchObject({ type: "heartbeat", rows: 0 });
    expect(events[firstStart - 1]).toMatchObject({ type: "heartbeat", rows: 0, waitingSeconds: expect.any(Number) });
    expect(parseCsv(file).length - 1).toBe((events.at(-1) as { rows: number }).rows);
  });

  it("keeps talking while it waits out a rate limit between pages", async () => {
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams("sort=id"));
    const result = await startExport(client, state, "json", options({ pageSize: 50, heartbeatMs: 200 }));
    const reader = result.stream.getReader();
    const decoder = new TextDecoder();
    // The first page is in the stream's queue (start, header, 50 rows); the next is asked for only
    // when the queue drains, so a 429 injected now meets page 2, with Retry-After: 2.
    // (On a busy machine a "still waiting" heartbeat may come before the first page: read past it.)
    let text = "";
    const lines = () => text.split("\n").filter((line) => line.endsWith("}"));
    while (!lines().some((line) => (JSON.parse(line) as ExportEvent).type === "start")) text += decoder.decode((await reader.read()).value, { stream: true });
    await sandbox.admin.injectFaults({ count: 1, status: 429, retryAfterSeconds: 2, paths: "api" });
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const all = text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ExportEvent);
    const heartbeats = all.slice(all.findIndex((event) => event.type === "start")).filter((event) => event.type === "heartbeat");
    expect(heartbeats.length).toBeGreaterThanOrEqual(5);
    expect(heartbeats.every((event) => event.type === "heartbeat" && event.rows === 50)).toBe(true);
    expect(all.at(-1)).toMatchObject({ type: "end" });
  });

  it("says at once that it is waiting when it answers before the first page, however soon that page then comes", async () => {
    // The first page comes after the answer but before a heartbeat interval has passed.
    await sandbox.admin.injectFaults({ count: 1, delayMs: 600, paths: "api" });
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams("sort=id"));
    const { events } = await collectExport((await startExport(client, state, "csv", options({ heartbeatMs: 5_000, firstPageWithinMs: 200 }))).stream);
    expect(kinds(events).slice(0, 2)).toEqual(["heartbeat", "start"]);
  });

  it("stops at its time limit with a clear error event, and releases what it holds", async () => {
    await sandbox.admin.injectFaults({ count: 5, delayMs: 4_000, paths: "api" });
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams(""));
    let finished = 0;
    const started = Date.now();
    const result = await startExport(client, state, "csv", options({ maxSeconds: 1, heartbeatMs: 200, firstPageWithinMs: 50, onFinish: () => void finished++ }));
    const { events } = await collectExport(result.stream);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(events.at(-1)).toEqual({
      type: "error",
      rows: 0,
      message: expect.stringMatching(/^The export was stopped after 1 second, its time limit, with 0 rows written; nothing was saved\./),
    });
    expect(finished).toBe(1);
  });

  it("reports a failure after the first page as an error event, and a quick one by throwing (the route's status)", async () => {
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams("sort=id"));
    await sandbox.admin.injectFaults({ count: 1, status: 422, paths: "api" });
    let finished = 0;
    await expect(startExport(client, state, "csv", options({ onFinish: () => void finished++ }))).rejects.toMatchObject({ name: "EmsBadRequestError" });
    expect(finished).toBe(1);

    const result = await startExport(client, state, "csv", options({ pageSize: 50, onFinish: () => void finished++ }));
    await sandbox.admin.injectFaults({ count: 1, status: 422, paths: "api" });
    const { events } = await collectExport(result.stream);
    expect(events.at(-1)).toMatchObject({ type: "error", rows: 50, message: expect.stringContaining("The export stopped with 50 rows written") });
    expect(finished).toBe(2);
  });

  it("turns a rate limit into the seconds to wait", async () => {
    await sandbox.admin.injectFaults({ count: 1, status: 429, retryAfterSeconds: 37, paths: "api" });
    const limited = await client.list("webhook-groups", {}, { waitForRateLimit: false }).catch(failureOf);
    expect(limited).toMatchObject({ kind: "rate-limited", retryAfterSeconds: 37 });
  });
});

describe("a page render's budget", () => {
  // A real team: shared answers are stored per team (lib/ems/answer-cache.ts).
  let actor: Awaited<ReturnType<typeof createTeam>>;
  beforeAll(async () => {
    actor = await createTeam();
  });

  it("gives up when the EMS API is still not answering at EMS_PAGE_BUDGET_MS, retries and all, and says it is unavailable", async () => {
    // Three slow answers: each attempt alone is within the client's own timeout of 10 s, so
    // without the budget the render would wait for all of them.
    await sandbox.admin.injectFaults({ count: 3, delayMs: 3_000, paths: "api" });
    const state = parseListingSearchParams("webhook-groups", new URLSearchParams(""));
    const started = Date.now();
    const outcome = await loadListing(actor, state, Promise.resolve(client), { budgetMs: 1_000 });
    const took = Date.now() - started;
    expect(outcome).toEqual({ kind: "unavailable", message: "The EMS API did not answer within 1 second. It may be slow or down; try again in a moment." });
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(2_000);
  });

  it("is spent on the token request too", async () => {
    await flushEmsState?.();
    await forgetCredential(client.fingerprint);
    await sandbox.admin.injectFaults({ count: 1, delayMs: 3_000, paths: "token" });
    const started = Date.now();
    const outcome = await loadListing(actor, parseListingSearchParams("events", new URLSearchParams("")), Promise.resolve(client), { budgetMs: 1_000 });
    expect(outcome).toMatchObject({ kind: "unavailable" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("changes nothing for an API that answers in time", async () => {
    const outcome = await loadListing(actor, parseListingSearchParams("webhook-groups", new URLSearchParams("per-page=50")), Promise.resolve(client), {
      budgetMs: 5_000,
    });
    expect(outcome).toMatchObject({ kind: "ok", meta: { perPage: 50 } });
  });
});
