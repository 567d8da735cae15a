import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { flushEmsState, forgetCredential, getEmsClient, UpstreamUnavailableError } from "@/lib/ems";
import type { CachedToken } from "@/lib/ems/state";
import { claimTokenLease, readSharedToken, releaseTokenLease, setTokenLeaseMs, storeTokenAndRelease } from "@/lib/ems/token-cache";
import { demoSandboxPerTest } from "@/tests/ems/support/sandbox";
import { ensureEmsTestEnv } from "./support/env";

/**
 * The token lease (lib/ems/token-cache.ts) in one process: who may ask the token endpoint, what
 * happens when the lease runs out, and that no database connection waits on the HTTP request.
 * tests/ems/cross-instance.db.test.ts covers the same with separate processes (real PostgreSQL).
 */

ensureEmsTestEnv();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > giveUpAt) throw new Error("condition not met in time");
    await sleep(20);
  }
}

/** The id of the lease the row records (null: nobody holds one, or it was given back). */
async function leaseHolder(fingerprint: string): Promise<string | null> {
  return (await prisma.emsTokenCache.findUnique({ where: { fingerprint }, select: { leaseId: true } }))?.leaseId ?? null;
}

function issuedToken(value: string): CachedToken {
  return { value, expiresAt: Date.now() + 30 * 60_000, obtainedAt: Date.now(), ciphertext: null };
}

describe("claiming the token lease", () => {
  const fingerprints: string[] = [];
  const newFingerprint = () => {
    const fingerprint = `lease-test-${randomUUID()}`;
    fingerprints.push(fingerprint);
    return fingerprint;
  };

  afterEach(async () => {
    setTokenLeaseMs(null);
    for (const fingerprint of fingerprints.splice(0)) await forgetCredential(fingerprint);
  });

  it("lets exactly one of many concurrent claimants win", async () => {
    const fingerprint = newFingerprint();
    const claims = await Promise.all(Array.from({ length: 20 }, () => claimTokenLease(fingerprint)));
    const winners = claims.filter((claim) => claim !== null);
    expect(winners).toHaveLength(1);
    expect(await leaseHolder(fingerprint)).toBe(winners[0]!.id);
  });

  it("is taken over once it runs out; the old holder can then neither store a token nor give the lease back", async () => {
    setTokenLeaseMs(300);
    const fingerprint = newFingerprint();
    const first = await claimTokenLease(fingerprint);
    expect(first).not.toBeNull();
    expect(await claimTokenLease(fingerprint)).toBeNull();
    // Giving back a lease one does not hold changes nothing.
    await releaseTokenLease({ ...first!, id: randomUUID() });
    expect(await leaseHolder(fingerprint)).toBe(first!.id);

    await sleep(400);
    const second = await claimTokenLease(fingerprint);
    expect(second).not.toBeNull();

    expect(await storeTokenAndRelease(first!, issuedToken("from-the-old-holder"))).toBeNull();
    await releaseTokenLease(first!);
    expect(await readSharedToken(fingerprint)).toMatchObject({ token: null });
    expect(await leaseHolder(fingerprint)).toBe(second!.id);

    const stored = await storeTokenAndRelease(second!, issuedToken("from-the-new-holder"));
    expect(stored?.ciphertext).toMatch(/^v1:/);
    const shared = await readSharedToken(fingerprint);
    expect(shared?.failing).toBe(false);
    expect(await leaseHolder(fingerprint)).toBeNull();
    expect(shared?.token?.value).toBe("from-the-new-holder");
  });

  it("hands a claimant the token stored just before its claim, so that it asks for none", async () => {
    const fingerprint = newFingerprint();
    const first = await claimTokenLease(fingerprint);
    await storeTokenAndRelease(first!, issuedToken("just-stored"));
    const second = await claimTokenLease(fingerprint);
    expect(second?.token?.value).toBe("just-stored");
    // ... unless it is the very token the API has just refused.
    await releaseTokenLease(second!);
    expect((await claimTokenLease(fingerprint, "just-stored"))?.token).toBeNull();
  });

  it("stores nothing for a credential forgotten while its token was being fetched", async () => {
    const fingerprint = newFingerprint();
    const lease = await claimTokenLease(fingerprint);
    await forgetCredential(fingerprint);
    expect(await storeTokenAndRelease(lease!, issuedToken("orphan"))).toBeNull();
    expect(await readSharedToken(fingerprint)).toBeNull();
  });
});

describe("getting a token under the lease", () => {
  const { sandbox, credential } = demoSandboxPerTest();
  afterEach(async () => {
    setTokenLeaseMs(null);
    await flushEmsState();
  });

  it("holds no database connection (and no transaction) while the token request is in flight", async () => {
    await sandbox.admin.injectFaults({ count: 1, delayMs: 1_500, paths: "token" });
    const call = getEmsClient(credential).listWebhookGroups({ perPage: 1 });
    await until(async () => (await sandbox.admin.stats()).tokenRequests === 1);

    // A transaction kept open across the request shows as this file's connection idle in it
    // (other files' connections, running beside this one, carry other application names).
    const started = performance.now();
    const [{ open }] = await prisma.$queryRaw<Array<{ open: number }>>`
      SELECT count(*)::int AS open FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = current_setting('application_name')
        AND state LIKE 'idle in transaction%'`;
    expect(performance.now() - started).toBeLessThan(700);
    expect(open).toBe(0);
    expect(await leaseHolder(credential.fingerprint)).not.toBeNull();

    await call;
    expect(await leaseHolder(credential.fingerprint)).toBeNull();
    expect((await readSharedToken(credential.fingerprint))?.token).not.toBeNull();
    expect((await sandbox.admin.stats()).tokenRequests).toBe(1);
  });

  it("waits for a holder that never finishes until its lease runs out, then asks itself", async () => {
    setTokenLeaseMs(1_000);
    // Another instance took the lease and died: nobody will store a token or give the lease back.
    expect(await claimTokenLease(credential.fingerprint)).not.toBeNull();
    const started = Date.now();
    const result = await getEmsClient(credential).listWebhookGroups({ perPage: 1 });
    const elapsed = Date.now() - started;
    expect(result.items).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(4_000);
    expect((await sandbox.admin.stats()).tokenRequests).toBe(1);
  });

  it("cuts off a token request that would outlive its lease, and gives the lease back", async () => {
    setTokenLeaseMs(1_000);
    await sandbox.admin.injectFaults({ count: 1, delayMs: 3_000, paths: "token" });
    const started = Date.now();
    const error = await getEmsClient(credential)
      .listWebhookGroups({ perPage: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect((error as UpstreamUnavailableError).code).toBe("ems_timeout");
    // Cut off at the lease (1 s), not after the 3 s the token endpoint takes; a busy machine adds its
    // own database round trips around it.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await leaseHolder(credential.fingerprint)).toBeNull();
    expect((await readSharedToken(credential.fingerprint))?.token ?? null).toBeNull();
  });

  it("gives the lease back at once when the token request fails", async () => {
    await sandbox.admin.injectFaults({ count: 3, status: 500, paths: "token" });
    await expect(getEmsClient(credential).listWebhookGroups({ perPage: 1 })).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(await leaseHolder(credential.fingerprint)).toBeNull();
    expect((await readSharedToken(credential.fingerprint))?.token ?? null).toBeNull();
    // The next call does not wait for a lease nobody holds.
    const started = Date.now();
    await getEmsClient(credential).listWebhookGroups({ perPage: 1 });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
