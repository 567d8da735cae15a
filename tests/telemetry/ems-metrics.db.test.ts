import { describe, expect, it } from "vitest";
import { credentialFingerprint, forgetCredential, getEmsClient, RateLimitedError } from "@/lib/ems";
import { metrics } from "@/lib/telemetry/metrics";
import { demoSandboxPerTest } from "@/tests/ems/support/sandbox";
import { ensureEmsTestEnv } from "@/tests/ems/support/env";

// The EMS counters of /api/metrics (lib/telemetry/metrics.ts) as the real client moves them, against
// the standalone sandbox over HTTP with its fault injection: every attempt by resource and status,
// token requests, 429s and the waits for them. Counted as differences: the registry is the process's.

ensureEmsTestEnv();

const { sandbox, credential } = demoSandboxPerTest();

/** Every series of the EMS counters, as `name{labels}` -> value. */
async function snapshot(): Promise<Map<string, number>> {
  const series = new Map<string, number>();
  const m = metrics();
  for (const metric of [m.emsCalls, m.emsTokenRequests, m.emsRateLimited, m.emsRateLimitWaits, m.emsRateLimitWaitSeconds]) {
    const { name, values } = await metric.get();
    for (const value of values) series.set(`${name}${JSON.stringify(value.labels)}`, value.value);
  }
  return series;
}

function difference(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const changed: Record<string, number> = {};
  for (const [key, value] of after) if (value !== (before.get(key) ?? 0)) changed[key] = value - (before.get(key) ?? 0);
  return changed;
}

describe("EMS metrics", () => {
  it("count each attempt by resource and status, and the token request", async () => {
    const before = await snapshot();
    const client = getEmsClient(credential);
    await client.listWebhookGroups({ perPage: 2 });
    await client.listEvents({ perPage: 2 });
    await sandbox.admin.injectFaults({ count: 1, status: 503, paths: "api" });
    await client.listEvents({ perPage: 2 });
    expect(difference(before, await snapshot())).toEqual({
      'ems_calls_total{"resource":"token","status":"200"}': 1,
      'ems_calls_total{"resource":"webhook-groups","status":"200"}': 1,
      'ems_calls_total{"resource":"events","status":"200"}': 2,
      'ems_calls_total{"resource":"events","status":"503"}': 1,
      'ems_token_requests_total{"result":"issued"}': 1,
    });
  });

  it("count a 429, and a wait for the window when the caller waits", async () => {
    const client = getEmsClient(credential);
    await client.listWebhookGroups({ perPage: 2 });
    const before = await snapshot();
    await sandbox.admin.injectFaults({ count: 1, status: 429, retryAfterSeconds: 1, paths: "api" });
    await expect(client.listWebhookGroups({ perPage: 2 })).rejects.toBeInstanceOf(RateLimitedError);
    await sandbox.admin.injectFaults({ count: 1, status: 429, retryAfterSeconds: 1, paths: "api" });
    await client.listWebhookGroups({ perPage: 2 }, { waitForRateLimit: true });
    const changed = difference(before, await snapshot());
    // The waiting call may wait twice: for the 429, then for the spent budget its figures announced.
    const waits = changed['ems_rate_limit_waits_total{"reason":"rate_limited"}'] ?? 0;
    expect(waits).toBeGreaterThanOrEqual(1);
    expect(changed['ems_rate_limit_wait_seconds_total{"reason":"rate_limited"}']).toBeGreaterThanOrEqual(waits);
    expect(changed).toMatchObject({
      'ems_calls_total{"resource":"webhook-groups","status":"429"}': 2,
      'ems_calls_total{"resource":"webhook-groups","status":"200"}': 1,
      'ems_rate_limited_total{"resource":"webhook-groups"}': 2,
    });
  });

  it("count a refused token request as rejected", async () => {
    const before = await snapshot();
    const wrong = { ...credential, consumerSecret: "wrong secret", fingerprint: credentialFingerprint(sandbox.baseUrl, credential.consumerKey, "wrong secret") };
    await forgetCredential(wrong.fingerprint);
    await expect(getEmsClient(wrong).listWebhookGroups()).rejects.toThrow();
    expect(difference(before, await snapshot())).toEqual({
      'ems_calls_total{"resource":"token","status":"401"}': 1,
      'ems_token_requests_total{"result":"rejected"}': 1,
    });
  });
});
