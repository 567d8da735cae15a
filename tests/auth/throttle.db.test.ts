import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { checkSignInThrottle, recordSignInAttempt } from "@/lib/auth/throttle";

const limits = { maxFailuresPerAccount: 10, maxFailuresPerAddress: 10, windowSeconds: 900 };
const unique = () => randomUUID().slice(0, 8);

describe("sign-in throttle (database)", () => {
  it("allows ten failures for one account, then refuses with the time to wait", async () => {
    const email = `t-${unique()}@example.test`;
    for (let i = 0; i < 9; i++) await recordSignInAttempt(email, `198.51.100.${i}`, false);
    expect(await checkSignInThrottle(email, "192.0.2.1", limits)).toEqual({ allowed: true });

    await recordSignInAttempt(email, "198.51.100.99", false);
    const verdict = await checkSignInThrottle(email, "192.0.2.1", limits);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.retryAfterSeconds).toBeGreaterThan(890);
  });

  it("refuses an address that failed for many accounts", async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}-${unique()}`;
    for (let i = 0; i < 10; i++) await recordSignInAttempt(`someone-${i}-${unique()}@example.test`, ip, false);
    const verdict = await checkSignInThrottle(`fresh-${unique()}@example.test`, ip, limits);
    expect(verdict.allowed).toBe(false);
  });

  it("forgets failures older than the window, and so survives restarts only as long as it should", async () => {
    const email = `old-${unique()}@example.test`;
    const longAgo = new Date(Date.now() - 16 * 60 * 1000);
    await prisma.loginAttempt.createMany({ data: Array.from({ length: 12 }, () => ({ email, ip: "192.0.2.50", success: false, createdAt: longAgo })) });
    expect(await checkSignInThrottle(email, "192.0.2.51", limits)).toEqual({ allowed: true });
  });

  it("lifts the limit when the oldest counted failure leaves the window", async () => {
    const email = `edge-${unique()}@example.test`;
    const now = Date.now();
    // Ten failures: the oldest 14 minutes ago, the rest just now.
    await prisma.loginAttempt.create({ data: { email, ip: "192.0.2.60", success: false, createdAt: new Date(now - 14 * 60 * 1000) } });
    for (let i = 0; i < 9; i++) await recordSignInAttempt(email, "192.0.2.61", false);
    const verdict = await checkSignInThrottle(email, "192.0.2.62", limits, new Date(now));
    expect(verdict).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });
});
