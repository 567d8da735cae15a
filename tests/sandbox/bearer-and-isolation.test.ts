import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { DEMO_CREDENTIALS, expectError, list, listAll, startSandboxServer, tokenFor, type StartedSandbox } from "./helpers";

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

describe("bearer tokens", () => {
  it("401 with WWW-Authenticate for a missing, unknown, tampered or non-Bearer token", async () => {
    const token = await tokenFor(sandbox.baseUrl);
    const tampered = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    const cases: [Record<string, string>, string][] = [
      [{}, "Your request was made with invalid credentials."],
      [{ authorization: "Bearer not-a-token" }, "Your request was made with invalid credentials."],
      [{ authorization: `Bearer ${tampered}` }, "Your request was made with invalid credentials."],
      [{ authorization: `Basic ${token}` }, "Your request was made with invalid credentials."],
    ];
    for (const [headers, message] of cases) {
      for (const path of ["webhook-groups", "events.json"]) {
        const response = await fetch(`${sandbox.baseUrl}/api/v1/${path}`, { headers });
        expect(response.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
        await expectError(response, 401, message);
      }
    }
  });

  it("rejects a token signed by another signing secret, and accepts one from another instance sharing it", async () => {
    const a = await startSandboxServer({ signingSecret: "shared-secret" });
    const b = await startSandboxServer({ signingSecret: "shared-secret" });
    const c = await startSandboxServer({ signingSecret: "different-secret" });
    try {
      const token = await tokenFor(a.baseUrl);
      expect((await list(b.baseUrl, token, "events")).status).toBe(200);
      await expectError(await list(c.baseUrl, token, "events"), 401, "Your request was made with invalid credentials.");
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it("an expired token is refused with its own message", async () => {
    await sandbox.admin.setTokenLifetime(60);
    const token = await tokenFor(sandbox.baseUrl);
    expect((await list(sandbox.baseUrl, token, "events")).status).toBe(200);
    // Moving the server's clock past the expiry is the same as waiting a minute.
    await sandbox.admin.setClockOffset(61);
    const expired = await list(sandbox.baseUrl, token, "events");
    expect(expired.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    await expectError(expired, 401, "The access token has expired. Request a new one.");
  });

  it("revoke-all ends every earlier token; a token asked for afterwards works", async () => {
    const before = await tokenFor(sandbox.baseUrl);
    await sandbox.admin.revokeAllTokens();
    await expectError(await list(sandbox.baseUrl, before, "events"), 401, "The access token has been revoked. Request a new one.");
    const after = await tokenFor(sandbox.baseUrl);
    expect((await list(sandbox.baseUrl, after, "events")).status).toBe(200);
  });

  it("405 for a write method on a listing", async () => {
    const token = await tokenFor(sandbox.baseUrl);
    const response = await fetch(`${sandbox.baseUrl}/api/v1/webhook-groups`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    await expectError(response, 405, "Method POST is not allowed here; use GET.");
  });

  it("404 with the standard body for an unknown path", async () => {
    await expectError(await fetch(`${sandbox.baseUrl}/api/v1/nothing-here`), 404, "Page not found.");
    await expectError(await fetch(`${sandbox.baseUrl}/api/v2/events`), 404, "Page not found.");
  });
});

describe("tenant isolation", () => {
  it("one account never sees another's groups or events, not even by id", async () => {
    const demo = await tokenFor(sandbox.baseUrl);
    const other = await tokenFor(sandbox.baseUrl, OTHER_CREDENTIALS);
    const demoGroups = await listAll<{ id: number; name: string }>(sandbox.baseUrl, demo, "webhook-groups");
    const otherGroups = await listAll<{ id: number; name: string }>(sandbox.baseUrl, other, "webhook-groups");
    expect(demoGroups).toHaveLength(140);
    expect(otherGroups).toHaveLength(45);
    const demoKeys = new Set(demoGroups.map((group) => `${group.id}|${group.name}`));
    expect(otherGroups.some((group) => demoKeys.has(`${group.id}|${group.name}`))).toBe(false);

    const demoEvents = await listAll<{ id: number }>(sandbox.baseUrl, demo, "events");
    const otherEvents = await listAll<{ id: number }>(sandbox.baseUrl, other, "events");
    expect(demoEvents).toHaveLength(60);
    expect(otherEvents).toHaveLength(12);

    // Asking for the demo account's ids with the other account's token finds only the other's own rows.
    const otherIds = new Set(otherGroups.map((group) => group.id));
    const demoOnlyIds = demoGroups
      .map((group) => group.id)
      .filter((id) => !otherIds.has(id))
      .slice(0, 50);
    const probe = await list(sandbox.baseUrl, other, "webhook-groups", `ids=${demoOnlyIds.join(",")}`);
    expect(((await probe.json()) as { items: unknown[] }).items).toEqual([]);
  });

  it("counts calls per account", async () => {
    const demo = await tokenFor(sandbox.baseUrl);
    const other = await tokenFor(sandbox.baseUrl, OTHER_CREDENTIALS);
    await list(sandbox.baseUrl, demo, "events");
    await list(sandbox.baseUrl, demo, "webhook-groups");
    await list(sandbox.baseUrl, other, "events");
    const stats = await sandbox.admin.stats();
    expect(stats).toEqual({
      tokenRequests: 2,
      apiRequests: 3,
      writes: 0,
      perAccount: {
        [DEMO_CREDENTIALS.consumerKey]: { tokenRequests: 1, apiRequests: 2, writes: 0 },
        [OTHER_CREDENTIALS.consumerKey]: { tokenRequests: 1, apiRequests: 1, writes: 0 },
      },
    });
  });

  it("accounts come from the configuration", async () => {
    const custom = await startSandboxServer({ accounts: [{ key: "k1", secret: "s 1", groups: 3, events: 2, seed: 5 }] });
    try {
      const token = await tokenFor(custom.baseUrl, { consumerKey: "k1", consumerSecret: "s 1" });
      expect(await listAll(custom.baseUrl, token, "webhook-groups")).toHaveLength(3);
      expect(await listAll(custom.baseUrl, token, "events")).toHaveLength(2);
      await expect(tokenFor(custom.baseUrl)).rejects.toThrow(/401/);
    } finally {
      await custom.close();
    }
  });
});
