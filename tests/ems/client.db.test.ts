import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { decryptSecret, secretAad } from "@/lib/crypto/secret-box";
import {
  CredentialsRejectedError,
  EmsBadRequestError,
  flushEmsState,
  forgetCredential,
  getCredentialState,
  getEmsClient,
  InvalidQueryError,
  InvalidResponseError,
  RateLimitedError,
  UpstreamUnavailableError,
} from "@/lib/ems";
import { ems } from "@/lib/ems/state";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/testing";
import { sandboxCredential, sandboxForFile } from "@/tests/ems/support/sandbox";
import { captureOutput } from "./support/capture-logs";
import { ensureEmsTestEnv, withEnv, withLogLevel } from "./support/env";

/**
 * The EMS client against the standalone sandbox over real HTTP, with its fault injection, and
 * the real database for the shared token cache. Every test starts from a reset sandbox and a
 * forgotten credential (no token in memory or in EmsTokenCache).
 */

ensureEmsTestEnv();

const sandbox = sandboxForFile();
let restoreEnv: (() => void) | undefined;

const demoCredential = (secret?: string, key?: string) => sandboxCredential(sandbox, key, secret);

async function stats() {
  return sandbox.admin.stats();
}

beforeEach(async () => {
  await sandbox.admin.reset();
  for (const credential of [demoCredential(), demoCredential("wrong secret"), demoCredential(OTHER_CREDENTIALS.consumerSecret, OTHER_CREDENTIALS.consumerKey)]) {
    await forgetCredential(credential.fingerprint);
  }
});

afterEach(async () => {
  restoreEnv?.();
  restoreEnv = undefined;
  await flushEmsState();
});

describe("token lifecycle", () => {
  it("100 sequential listings use one token, stored encrypted in EmsTokenCache", async () => {
    const credential = demoCredential();
    const client = getEmsClient(credential);
    for (let i = 0; i < 100; i++) {
      const result = await client.listWebhookGroups({ perPage: 5, page: (i % 5) + 1 });
      expect(result.items).toHaveLength(5);
    }
    expect(await stats()).toMatchObject({ tokenRequests: 1, apiRequests: 100 });

    const row = await prisma.emsTokenCache.findUniqueOrThrow({ where: { fingerprint: credential.fingerprint } });
    expect(row.tokenCiphertext).toMatch(/^v1:/);
    const token = decryptSecret(row.tokenCiphertext!, secretAad("EmsTokenCache", credential.fingerprint, "tokenCiphertext"));
    expect(row.tokenCiphertext).not.toContain(token);
    expect(() => decryptSecret(row.tokenCiphertext!, secretAad("EmsTokenCache", "another-fingerprint", "tokenCiphertext"))).toThrow();
    expect(row.failedAt).toBeNull();
  });

  it("a cold start (empty memory) reuses the token stored in EmsTokenCache", async () => {
    const credential = demoCredential();
    expect(await getCredentialState(credential.fingerprint)).toBeNull();
    await getEmsClient(credential).listWebhookGroups({ perPage: 1 });
    ems.tokens.clear(); // what a restarted or second instance starts with
    await getEmsClient(credential).listWebhookGroups({ perPage: 1 });
    expect(await stats()).toMatchObject({ tokenRequests: 1, apiRequests: 2 });
  });

  it("a cached token that no longer decrypts (its key left the ring) is replaced, not an error", async () => {
    const credential = demoCredential();
    await getEmsClient(credential).listWebhookGroups({ perPage: 1 });
    ems.tokens.clear();
    restoreEnv = withEnv({ CREDENTIAL_ENCRYPTION_KEYS: `rotated:${randomBytes(32).toString("base64")}` });
    await getEmsClient(credential).listWebhookGroups({ perPage: 1 });
    expect((await stats()).tokenRequests).toBe(2);
    const row = await prisma.emsTokenCache.findUniqueOrThrow({ where: { fingerprint: credential.fingerprint } });
    expect(row.tokenCiphertext).toMatch(/^v1:rotated:/);
  });

  it("50 concurrent listings share one token request", async () => {
    const client = getEmsClient(demoCredential());
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.listWebhookGroups({ perPage: 1, page: i + 1 })));
    expect(results.map((result) => result.items[0].id)).toHaveLength(50);
    expect(await stats()).toMatchObject({ tokenRequests: 1, apiRequests: 50 });
  });

  it("renews a short-lived token before it expires, without a failed call", async () => {
    await sandbox.admin.setTokenLifetime(4);
    const client = getEmsClient(demoCredential());
    const started = Date.now();
    let calls = 0;
    while (Date.now() - started < 7_000) {
      await client.listWebhookGroups({ perPage: 1 });
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const counts = await stats();
    // Every call went through on its first try (no 401 and retry) ...
    expect(counts.apiRequests).toBe(calls);
    // ... and tokens were renewed along the way (at half-life, every 1 to 2 s), not once per call.
    expect(counts.tokenRequests).toBeGreaterThanOrEqual(3);
    expect(counts.tokenRequests).toBeLessThanOrEqual(9);
    expect(calls).toBeGreaterThan(counts.tokenRequests * 2);
  });

  it("replaces tokens revoked mid-flight: every call succeeds with one new token", async () => {
    const client = getEmsClient(demoCredential());
    await client.listWebhookGroups({ perPage: 1 });
    await sandbox.admin.revokeAllTokens();
    const results = await Promise.all(Array.from({ length: 20 }, () => client.listWebhookGroups({ perPage: 2 })));
    expect(results.every((result) => result.items.length === 2)).toBe(true);
    // One token before, one after the revocation; each call retried once.
    expect(await stats()).toMatchObject({ tokenRequests: 2, apiRequests: 1 + 20 * 2 });
  });

  it("replaces a token revoked while calls keep coming: no call fails, one new token", async () => {
    const client = getEmsClient(demoCredential());
    await client.listWebhookGroups({ perPage: 1 });
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      if (i === 10) await sandbox.admin.revokeAllTokens();
      calls.push(client.listWebhookGroups({ perPage: 3 }));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const results = (await Promise.all(calls)) as { items: unknown[] }[];
    expect(results.every((result) => result.items.length === 3)).toBe(true);
    const counts = await stats();
    expect(counts.tokenRequests).toBe(2);
    // Each call refused with the revoked token was retried once.
    expect(counts.apiRequests).toBeGreaterThan(31);
    expect(counts.apiRequests).toBeLessThanOrEqual(31 + 20);
  });

  it.each([600, -600])("corrects a server clock off by %i s with the Date header", async (offsetSeconds) => {
    await sandbox.admin.setClockOffset(offsetSeconds);
    const credential = demoCredential();
    const client = getEmsClient(credential);
    const before = Date.now();
    const { expiresAt } = await client.testConnection();
    // 30 minutes from now on OUR clock, whatever the server's clock says.
    expect(expiresAt.getTime()).toBeGreaterThan(before + 29 * 60_000 - 2_000);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 30 * 60_000);
    for (let i = 0; i < 20; i++) await client.listWebhookGroups({ perPage: 1 });
    expect((await stats()).tokenRequests).toBe(1);
    expect((await getCredentialState(credential.fingerprint))?.tokenExpiresAt?.getTime()).toBe(expiresAt.getTime());
  });

  it("reports wrong credentials as CredentialsRejectedError and marks the credential failing", async () => {
    const credential = demoCredential("wrong secret");
    const client = getEmsClient(credential);
    const error = await client.listWebhookGroups().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CredentialsRejectedError);
    expect((error as CredentialsRejectedError).userMessage).toMatch(/rejected your API credentials/);
    const state = await getCredentialState(credential.fingerprint);
    expect(state?.failedAt).toBeInstanceOf(Date);
    expect(state?.failureReason).toMatch(/token request was refused \(401/);
    expect((await stats()).apiRequests).toBe(0);
  });

  it("a second 401 with a fresh token is CredentialsRejectedError; a later success clears the mark", async () => {
    const credential = demoCredential();
    const client = getEmsClient(credential);
    await sandbox.admin.injectFaults({ count: 2, status: 401, paths: "api" });
    await expect(client.listWebhookGroups()).rejects.toBeInstanceOf(CredentialsRejectedError);
    expect(await stats()).toMatchObject({ tokenRequests: 2, apiRequests: 2 });
    expect((await getCredentialState(credential.fingerprint))?.failureReason).toMatch(/401 twice/);

    await client.listWebhookGroups();
    const state = await getCredentialState(credential.fingerprint);
    expect(state?.failedAt).toBeNull();
    expect(state?.failureReason).toBeNull();
  });

  it("a 401 from the token endpoint marks failing; the next token success clears it", async () => {
    const credential = demoCredential();
    const client = getEmsClient(credential);
    await sandbox.admin.injectFaults({ count: 1, status: 401, paths: "token" });
    await expect(client.listWebhookGroups()).rejects.toBeInstanceOf(CredentialsRejectedError);
    expect((await getCredentialState(credential.fingerprint))?.failedAt).toBeInstanceOf(Date);
    await client.listWebhookGroups();
    expect((await getCredentialState(credential.fingerprint))?.failedAt).toBeNull();
  });

  it("keeps accounts apart", async () => {
    const demo = await getEmsClient(demoCredential()).testConnection();
    const other = await getEmsClient(demoCredential(OTHER_CREDENTIALS.consumerSecret, OTHER_CREDENTIALS.consumerKey)).testConnection();
    expect(demo.webhookGroupCount).toBe(140);
    expect(other.webhookGroupCount).toBe(45);
    expect((await stats()).tokenRequests).toBe(2);
  });
});

describe("calls", () => {
  it("gives a 429 to a page render at once, as RateLimitedError with the seconds to wait", async () => {
    const client = getEmsClient(demoCredential());
    await client.listWebhookGroups();
    await sandbox.admin.injectFaults({ count: 1, status: 429, retryAfterSeconds: 7, paths: "api" });
    const started = Date.now();
    const error = await client.listWebhookGroups().catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBe(7);
    expect((error as RateLimitedError).userMessage).toMatch(/Try again in 7 seconds/);
  });

  it("waits out a 429 when asked to (long jobs)", async () => {
    const client = getEmsClient(demoCredential());
    await sandbox.admin.injectFaults({ count: 1, status: 429, retryAfterSeconds: 1, paths: "api" });
    const started = Date.now();
    const result = await client.listWebhookGroups({ perPage: 3 }, { waitForRateLimit: true });
    expect(result.items).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it("keeps the rate-limit figures of the last answer per credential, in memory and in the database", async () => {
    const credential = demoCredential();
    const client = getEmsClient(credential);
    const first = await client.listWebhookGroups();
    // The token request costs 1 credit, a listing 10.
    expect(first.rateLimit).toMatchObject({ limit: 2000, remaining: 1989 });
    const second = await client.listWebhookGroups();
    expect(second.rateLimit?.remaining).toBe(1979);
    expect((await getCredentialState(credential.fingerprint))?.rateLimit?.remaining).toBe(1979);
    await flushEmsState();
    const row = await prisma.emsTokenCache.findUniqueOrThrow({ where: { fingerprint: credential.fingerprint } });
    expect(row).toMatchObject({ rateLimitLimit: 2000, rateLimitRemaining: 1979 });
    expect(row.rateLimitResetAt!.getTime()).toBeGreaterThan(Date.now() + 590_000);
  });

  it("does not spend a round trip once the budget is known to be used up", async () => {
    // 1 credit for the token, 10 per listing: three listings leave nothing.
    await sandbox.admin.setRateLimit({ credits: 31, windowSeconds: 60 });
    const client = getEmsClient(demoCredential());
    for (let i = 0; i < 3; i++) await client.listWebhookGroups();
    const error = await client.listWebhookGroups().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBeGreaterThan(50);
    expect((error as RateLimitedError).rateLimit).toMatchObject({ limit: 31, remaining: 0 });
    expect((await stats()).apiRequests).toBe(3);
  });

  it("retries a GET after a 500 and succeeds", async () => {
    const client = getEmsClient(demoCredential());
    await client.listWebhookGroups();
    await sandbox.admin.injectFaults({ count: 1, status: 500, paths: "api" });
    const result = await client.listWebhookGroups({ perPage: 4 });
    expect(result.items).toHaveLength(4);
    expect((await stats()).apiRequests).toBe(3);
  });

  it("gives up after two retries: UpstreamUnavailableError", async () => {
    const client = getEmsClient(demoCredential());
    await client.listWebhookGroups();
    await sandbox.admin.injectFaults({ count: 3, status: 503, paths: "api" });
    const error = await client.listWebhookGroups().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect((error as UpstreamUnavailableError).status).toBe(503);
    expect((await stats()).apiRequests).toBe(4);
  });

  it("retries the token request after a 500", async () => {
    const client = getEmsClient(demoCredential());
    await sandbox.admin.injectFaults({ count: 1, status: 500, paths: "token" });
    await client.listWebhookGroups();
    expect((await stats()).tokenRequests).toBe(2);
  });

  it("reports malformed JSON as InvalidResponseError, then works again", async () => {
    const client = getEmsClient(demoCredential());
    await client.listWebhookGroups();
    await sandbox.admin.injectFaults({ count: 1, malformedJson: true, paths: "api" });
    const error = await client.listWebhookGroups().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).userMessage).not.toMatch(/JSON/);
    expect((await client.listWebhookGroups({ perPage: 2 })).items).toHaveLength(2);
  });

  it("times out a slow answer, retries it, and reports a timeout when every attempt is slow", async () => {
    const client = getEmsClient(demoCredential());
    await client.listWebhookGroups();
    restoreEnv = withEnv({ EMS_TIMEOUT_MS: "250" });
    await sandbox.admin.injectFaults({ count: 1, delayMs: 1_500, paths: "api" });
    const started = Date.now();
    expect((await client.listWebhookGroups({ perPage: 2 })).items).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1_500);

    await sandbox.admin.injectFaults({ count: 3, delayMs: 1_500, paths: "api" });
    const error = await client.listWebhookGroups().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect((error as UpstreamUnavailableError).code).toBe("ems_timeout");
  });

  it("stops at once when the caller aborts", async () => {
    const client = getEmsClient(demoCredential());
    await client.listWebhookGroups();
    await sandbox.admin.injectFaults({ count: 1, delayMs: 2_000, paths: "api" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await client.listWebhookGroups({}, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("passes the API's message on in EmsBadRequestError (a wrong listing path)", async () => {
    restoreEnv = withEnv({ EMS_WEBHOOK_GROUPS_PATH: "/api/v1/webhook_groups" });
    const error = await getEmsClient(demoCredential())
      .listWebhookGroups()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EmsBadRequestError);
    expect((error as EmsBadRequestError).status).toBe(404);
    expect((error as EmsBadRequestError).apiMessage.length).toBeGreaterThan(0);
  });

  it("refuses an impossible query before sending it", async () => {
    const client = getEmsClient(demoCredential());
    await expect(client.listWebhookGroups({ search: [{ field: "name", operator: "=*contains*", value: "R&D" }] })).rejects.toBeInstanceOf(InvalidQueryError);
    expect((await stats()).apiRequests).toBe(0);
  });

  it("logs one structured line per request, never a token, a secret or an Authorization header", async () => {
    restoreEnv = withLogLevel("info");
    const credential = demoCredential();
    const client = getEmsClient(credential);
    const { output, lines, error } = await captureOutput(async () => {
      await client.listWebhookGroups({ perPage: 2 }, { requestId: "req-log-test" });
      await sandbox.admin.revokeAllTokens();
      await client.listEvents({ fields: ["id", "name"] });
      await sandbox.admin.injectFaults({ count: 1, status: 500, paths: "api" });
      await client.listEvents();
      await getEmsClient(demoCredential("wrong secret"))
        .listWebhookGroups()
        .catch(() => undefined);
    });
    expect(error).toBeUndefined();
    const row = await prisma.emsTokenCache.findUniqueOrThrow({ where: { fingerprint: credential.fingerprint } });
    const token = decryptSecret(row.tokenCiphertext!, secretAad("EmsTokenCache", credential.fingerprint, "tokenCiphertext"));
    const basic = Buffer.from(`${credential.consumerKey}:`).toString("base64").slice(0, 12);
    for (const forbidden of [
      token,
      token.slice(0, 20),
      "ems1.",
      DEMO_CREDENTIALS.consumerSecret,
      "s3cret",
      "wrong secret",
      basic,
      "Bearer",
      "Basic",
      "authorization",
      "access_token",
    ]) {
      expect(output.toLowerCase()).not.toContain(forbidden.toLowerCase());
    }
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((entry) => entry.event === "ems.http");
    expect(requests.length).toBeGreaterThanOrEqual(6);
    for (const entry of requests) {
      expect(entry).toMatchObject({ scope: "ems", method: expect.stringMatching(/^(GET|POST)$/), path: expect.stringMatching(/^\/api\/v1\//) });
      expect(typeof entry.requestId).toBe("string");
      expect(typeof entry.durationMs).toBe("number");
      expect("status" in entry).toBe(true);
    }
    expect(requests.filter((entry) => entry.requestId === "req-log-test").map((entry) => entry.path)).toEqual(["/api/v1/oauth2/token", "/api/v1/webhook-groups"]);
    expect(requests.some((entry) => entry.status === 401)).toBe(true);
    expect(requests.some((entry) => entry.status === 500 && entry.retrying === true)).toBe(true);
  });
});

describe("listings", () => {
  it("lists events with fields, search and sort", async () => {
    const client = getEmsClient(demoCredential());
    const result = await client.listEvents({
      fields: ["id", "name", "status", "start_date"],
      search: [{ field: "status", operator: "=", value: "live" }],
      sort: [{ field: "start_date", direction: "desc" }],
      perPage: 100,
    });
    expect(result.items.length).toBeGreaterThan(0);
    expect(result.items.every((event) => event.status === "live")).toBe(true);
    const dates = result.items.map((event) => event.start_date!);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(result.meta.totalCount).toBe(result.items.length);
  });

  it("combines conditions with or, and narrows by ids", async () => {
    const client = getEmsClient(demoCredential());
    const all = (await client.listWebhookGroups({ fields: ["id"], perPage: 200, sort: [{ field: "id", direction: "asc" }] })).items.map((group) => group.id);
    expect(all).toHaveLength(140);
    const [low, high] = [all[2], all[137]];
    const either = await client.listWebhookGroups({
      search: [
        { field: "id", operator: "<=", value: String(low) },
        { field: "id", operator: ">=", value: String(high) },
      ],
      searchCondition: "or",
      sort: [{ field: "id", direction: "asc" }],
    });
    expect(either.items.map((group) => group.id)).toEqual([...all.slice(0, 3), ...all.slice(137)]);
    const both = await client.listWebhookGroups({
      search: [
        { field: "id", operator: ">=", value: String(low) },
        { field: "id", operator: "<=", value: String(high) },
      ],
    });
    expect(both.meta.totalCount).toBe(136);
    const wanted = [all[4], all[8], all[76]];
    const some = await client.listWebhookGroups({ ids: [wanted[0], wanted[1], wanted[1], wanted[2]], fields: ["id"] });
    expect(some.items.map((group) => group.id).sort((a, b) => a - b)).toEqual(wanted);
    expect(some.items[0]).toEqual({ id: some.items[0].id });
  });

  it("reads webhooks as an array, and as an object keyed by id", async () => {
    const client = getEmsClient(demoCredential());
    const asArray = await client.listWebhookGroups({ expand: ["webhooks"], perPage: 10 });
    await sandbox.admin.setQuirks({ webhooksAsObject: true });
    const asObject = await client.listWebhookGroups({ expand: ["webhooks"], perPage: 10 });
    expect(asObject.items).toEqual(asArray.items);
    expect(asArray.items.some((group) => (group.webhooks?.length ?? 0) > 0)).toBe(true);
  });

  it("pages() walks to _meta.pageCount, and never yields a page twice", async () => {
    const client = getEmsClient(demoCredential());
    const pages = [];
    for await (const page of client.pages("webhook-groups", { perPage: 50, fields: ["id"] })) pages.push(page);
    expect(pages.map((page) => page.meta.currentPage)).toEqual([1, 2, 3]);
    expect(pages.flatMap((page) => page.items).length).toBe(140);
    expect(new Set(pages.flatMap((page) => page.items.map((item) => item.id))).size).toBe(140);

    // Past the end the service returns the last page again (production quirk): nothing to yield.
    const beyond = [];
    for await (const page of client.pages("webhook-groups", { perPage: 50, page: 9 })) beyond.push(page);
    expect(beyond).toEqual([]);
    expect((await stats()).apiRequests).toBe(4);
  });

  it("pages() waits out the rate limit and keeps the reserve for page views", async () => {
    await sandbox.admin.setRateLimit({ credits: 40, windowSeconds: 2 });
    const client = getEmsClient(demoCredential());
    const started = Date.now();
    const ids: number[] = [];
    for await (const page of client.pages("webhook-groups", { perPage: 25, fields: ["id"] })) ids.push(...page.items.map((item) => item.id));
    expect(ids).toHaveLength(140);
    expect(new Set(ids).size).toBe(140);
    // 6 pages, 2 per 2-second window (30 % of the 40 credits, 12, is kept for page views): at least 2 waits.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    // Six listings; on a loaded machine one call may land a moment before the sandbox's window
    // turns and be refused (a 429 costs nothing, and is waited out), never more.
    const { apiRequests } = await stats();
    expect(apiRequests).toBeGreaterThanOrEqual(6);
    expect(apiRequests).toBeLessThanOrEqual(7);
  });
});
