import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_SECRET_HEADER } from "@/lib/sandbox/api/admin";
import { expectError, list, startSandboxServer, tokenFor, type StartedSandbox } from "./helpers";

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer({ adminSecret: "test-admin-secret" });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

const parseEmsTimestamp = (value: string) => Date.parse(`${value.replace(" ", "T")}Z`);

describe("the admin endpoint", () => {
  it("refuses a missing or wrong admin secret, and does not exist without one", async () => {
    await expectError(await fetch(`${sandbox.baseUrl}/__admin/stats`), 403, "Wrong or missing sandbox admin secret.");
    await expectError(await fetch(`${sandbox.baseUrl}/__admin/stats`, { headers: { [ADMIN_SECRET_HEADER]: "nope" } }), 403, "Wrong or missing sandbox admin secret.");
    expect((await fetch(`${sandbox.baseUrl}/__admin/stats`, { headers: { [ADMIN_SECRET_HEADER]: "test-admin-secret" } })).status).toBe(200);
    const { listenSandbox } = await import("@/lib/sandbox/server");
    const noAdmin = await listenSandbox({});
    try {
      await expectError(await fetch(`${noAdmin.baseUrl}/__admin/stats`, { headers: { [ADMIN_SECRET_HEADER]: "" } }), 404, "Page not found.");
    } finally {
      await noAdmin.close();
    }
  });

  it("validates its input", async () => {
    const response = await fetch(`${sandbox.baseUrl}/__admin/faults`, {
      method: "POST",
      headers: { [ADMIN_SECRET_HEADER]: "test-admin-secret", "content-type": "application/json" },
      body: JSON.stringify({ count: 1 }),
    });
    expect(response.status).toBe(400);
    await expect(sandbox.admin.injectFaults({ count: 1, status: 418 as never })).rejects.toThrow(/400/);
  });
});

describe("faults on demand", () => {
  it("the next N calls answer the chosen status, then normal service resumes", async () => {
    const token = await tokenFor(sandbox.baseUrl);
    await sandbox.admin.injectFaults({ count: 2, status: 503, paths: "api" });
    for (let i = 0; i < 2; i++) {
      const response = await list(sandbox.baseUrl, token, "events");
      expect(response.headers.get("retry-after")).toBe("1");
      await expectError(response, 503, "The service is temporarily unavailable. Try again later.");
    }
    expect((await list(sandbox.baseUrl, token, "events")).status).toBe(200);
  });

  it("401, 429, 500 and 422 carry the headers and bodies a client needs", async () => {
    const token = await tokenFor(sandbox.baseUrl);
    await sandbox.admin.injectFaults({ count: 1, status: 401 });
    const unauthorized = await list(sandbox.baseUrl, token, "events");
    expect(unauthorized.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    await expectError(unauthorized, 401, "Your request was made with invalid credentials.");

    await sandbox.admin.injectFaults({ count: 1, status: 429, retryAfterSeconds: 7 });
    const limited = await list(sandbox.baseUrl, token, "events");
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(limited.headers.get("x-rate-limit-remaining")).toBe("0");
    await expectError(limited, 429, "Rate limit exceeded.");

    await sandbox.admin.injectFaults({ count: 1, status: 500 });
    await expectError(await list(sandbox.baseUrl, token, "events"), 500, "An internal server error occurred.");

    await sandbox.admin.injectFaults({ count: 1, status: 422 });
    const invalid = await list(sandbox.baseUrl, token, "events");
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual([{ field: "name", message: "Name cannot be blank." }]);
  });

  it("can target only token calls, and then counts them", async () => {
    await sandbox.admin.injectFaults({ count: 1, status: 401, paths: "token" });
    await expect(tokenFor(sandbox.baseUrl)).rejects.toThrow(/401/);
    const token = await tokenFor(sandbox.baseUrl);
    await sandbox.admin.injectFaults({ count: 1, status: 500, paths: "token" });
    expect((await list(sandbox.baseUrl, token, "events")).status).toBe(200);
    expect((await sandbox.admin.state()).pendingFaults).toBe(1);
    expect((await sandbox.admin.stats()).tokenRequests).toBe(2);
  });

  it("delays an answer", async () => {
    const token = await tokenFor(sandbox.baseUrl);
    await sandbox.admin.injectFaults({ count: 1, delayMs: 300 });
    const started = Date.now();
    const response = await list(sandbox.baseUrl, token, "events");
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("sends malformed JSON", async () => {
    const token = await tokenFor(sandbox.baseUrl);
    await sandbox.admin.injectFaults({ count: 1, malformedJson: true, paths: "api" });
    const response = await list(sandbox.baseUrl, token, "events");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await response.text();
    expect(text.startsWith('{"items":[')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();

    await sandbox.admin.injectFaults({ count: 1, malformedJson: true, paths: "token" });
    await expect(tokenFor(sandbox.baseUrl)).rejects.toThrow();
  });

  it("shifts the server clock: the Date header and expires_at move together", async () => {
    await sandbox.admin.setClockOffset(600);
    const aheadResponse = await fetch(`${sandbox.baseUrl}/api/v1/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("ems_demo_key:s3cret%20pass%2B%2F%3D%3A%25%26%C3%A9").toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
      },
      body: "grant_type=client_credentials",
    });
    const serverNow = Date.parse(aheadResponse.headers.get("date")!);
    expect(serverNow - Date.now()).toBeGreaterThan(595_000);
    expect(serverNow - Date.now()).toBeLessThan(605_000);
    const { expires_at: expiresAt, access_token: token } = (await aheadResponse.json()) as { expires_at: string; access_token: string };
    expect(Math.abs(parseEmsTimestamp(expiresAt) - serverNow - 30 * 60_000)).toBeLessThanOrEqual(1000);
    // The token is valid on the server's own clock.
    expect((await list(sandbox.baseUrl, token, "events")).status).toBe(200);

    await sandbox.admin.setClockOffset(-600);
    const behind = await list(sandbox.baseUrl, token, "events");
    expect(Date.parse(behind.headers.get("date")!) - Date.now()).toBeLessThan(-595_000);
  });

  it("a shorter token lifetime shows in expires_at", async () => {
    await sandbox.admin.setTokenLifetime(90);
    const response = await fetch(`${sandbox.baseUrl}/api/v1/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("ems_demo_key:s3cret+pass%2B%2F%3D%3A%25%26%C3%A9").toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    const { expires_at: expiresAt } = (await response.json()) as { expires_at: string };
    expect(Math.abs(parseEmsTimestamp(expiresAt) - Date.parse(response.headers.get("date")!) - 90_000)).toBeLessThanOrEqual(1000);
  });

  it("reset clears faults, counters and settings", async () => {
    await sandbox.admin.injectFaults({ count: 5, status: 500 });
    await sandbox.admin.setClockOffset(30);
    await sandbox.admin.setTokenLifetime(10);
    await sandbox.admin.setRateLimit({ credits: 5 });
    await sandbox.admin.reset();
    expect(await sandbox.admin.state()).toEqual({
      tokenLifetimeSeconds: 1800,
      clockOffsetSeconds: 0,
      pendingFaults: 0,
      rateLimit: { credits: 2000, windowSeconds: 600 },
      quirks: { webhooksAsObject: false },
      editedAccounts: [],
      driftSeconds: 0,
    });
    expect(await sandbox.admin.stats()).toEqual({ tokenRequests: 0, apiRequests: 0, writes: 0, perAccount: {} });
  });
});
