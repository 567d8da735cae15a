// The password and sign-up throttles (lib/auth/throttle.ts) against a real PostgreSQL: the rules,
// and races of 40 concurrent attempts. Run on the embedded server and, with TEST_DATABASE_URL, on
// the machine's PostgreSQL too.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { hashPassword } from "@/lib/auth/password";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { addressKey, beginPasswordAttempt, beginSignUp, passwordAttemptSucceeded, type ThrottleLimits, type ThrottleVerdict } from "@/lib/auth/throttle";
import { warmPool } from "../setup/db";
import { createTeam } from "../teams/fixtures";

const limits: ThrottleLimits = { maxFailuresPerAccount: 10, maxFailuresPerAddress: 10, windowSeconds: 900, maxAccountDelaySeconds: 300 };
const unique = () => randomUUID().slice(0, 8);
const newAccount = () => `t-${unique()}@example.test`;
let addressCounter = 0;
/**
 * An address no other test uses, in any file sharing the database: 198.18.250.0 and up, a part of
 * the benchmark range (never a real client) that the other files' random addresses (198.18.x.y and
 * 198.19.x.y with x < 250) never reach. Random addresses here once collided with another test's,
 * whose failures then refused this one.
 */
const newAddress = () => {
  const n = addressCounter++;
  return `198.18.${250 + (n >> 8)}.${n & 255}`;
};

/** `count` guesses that turn out wrong (begun and never marked a success). */
async function fail(account: string, ip: string, count = 1, use = limits): Promise<void> {
  for (let i = 0; i < count; i++) {
    const verdict = await beginPasswordAttempt(account, ip, use);
    expect(verdict.allowed, `failure ${i + 1} of ${count} for ${account} from ${ip}`).toBe(true);
  }
}

const refusal = (verdict: ThrottleVerdict) => (verdict.allowed ? null : verdict);
const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000);

describe("password throttle: one account from one address (hard)", () => {
  it("allows ten wrong passwords, then refuses that address with the time to wait", async () => {
    const account = newAccount();
    const ip = newAddress();
    await fail(account, ip, 10);
    const verdict = refusal(await beginPasswordAttempt(account, ip, limits));
    expect(verdict?.reasons).toContain("account-and-address");
    expect(verdict?.retryAfterSeconds).toBeGreaterThan(890);
    expect(verdict?.retryAfterSeconds).toBeLessThanOrEqual(900);
  });

  it("lifts the limit when the oldest counted failure leaves the window", async () => {
    const account = newAccount();
    const ip = newAddress();
    await prisma.authAttempt.create({ data: { kind: "password", account, address: ip, success: false, createdAt: new Date(Date.now() - 14 * 60_000) } });
    await fail(account, ip, 9);
    const verdict = refusal(await beginPasswordAttempt(account, ip, limits));
    expect(verdict?.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(verdict?.retryAfterSeconds).toBeLessThanOrEqual(61);
    expect((await beginPasswordAttempt(account, ip, limits, secondsFromNow(62))).allowed).toBe(true);
  });

  it("forgets failures older than the window", async () => {
    const account = newAccount();
    const ip = newAddress();
    const longAgo = new Date(Date.now() - 16 * 60_000);
    await prisma.authAttempt.createMany({ data: Array.from({ length: 12 }, () => ({ kind: "password", account, address: ip, success: false, createdAt: longAgo })) });
    expect((await beginPasswordAttempt(account, ip, limits)).allowed).toBe(true);
  });

  it("does not count a guess that was right", async () => {
    const account = newAccount();
    const ip = newAddress();
    await fail(account, ip, 9);
    const right = await beginPasswordAttempt(account, ip, limits);
    if (!right.allowed) expect.fail("the tenth guess is allowed");
    await passwordAttemptSucceeded(right.attemptId);
    expect((await beginPasswordAttempt(account, ip, limits)).allowed).toBe(true);
  });

  it("keys IPv6 clients by their /64: rotating inside it is the same address", async () => {
    expect(addressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(addressKey("not an address")).toBe("unknown");
    const account = newAccount();
    const prefix = `2001:db8:${Math.floor(Math.random() * 65_000).toString(16)}:7`;
    for (let i = 1; i <= 10; i++) await fail(account, `${prefix}::${i.toString(16)}`);
    expect((await beginPasswordAttempt(account, `${prefix}:ffff::1`, limits)).allowed).toBe(false);
  });
});

describe("password throttle: one address, every account (hard)", () => {
  it("refuses an address that failed for many accounts", async () => {
    const ip = newAddress();
    for (let i = 0; i < 10; i++) await fail(newAccount(), ip);
    const verdict = refusal(await beginPasswordAttempt(newAccount(), ip, limits));
    expect(verdict?.reasons).toEqual(["address"]);
  });
});

describe("password throttle: one account, every address (growing delays, never a lock-out of the owner)", () => {
  it("lets the owner in from an address they signed in from, however many failures came from elsewhere", async () => {
    const owner = await createTeam();
    const home = newAddress();
    await prisma.userSession.create({ data: { userId: owner.userId, ip: home } });
    // 30 wrong passwords from three other places, just now (one at a time from each would already
    // have met the growing delay: that is the next test).
    const attackers = [newAddress(), newAddress(), newAddress()];
    await prisma.authAttempt.createMany({
      data: attackers.flatMap((address) => Array.from({ length: 10 }, () => ({ kind: "password", account: owner.email, address, success: false }))),
    });
    // Each of those places is refused for this account, and so is a new one (for a while)...
    for (const ip of attackers) expect(refusal(await beginPasswordAttempt(owner.email, ip, limits))?.reasons).toContain("account-and-address");
    expect(refusal(await beginPasswordAttempt(owner.email, newAddress(), limits))?.reasons).toEqual(["account-delay"]);
    // ...but not the owner's own address.
    expect((await beginPasswordAttempt(owner.email, home, limits)).allowed).toBe(true);
  });

  it("slows a new address down, by a delay that doubles with each failure, up to the cap", async () => {
    const account = newAccount();
    const start = Date.now();
    // Failures at known times (each from a fresh address, so no other limit applies).
    const failAt = async (secondsAfterStart: number) => {
      const verdict = await beginPasswordAttempt(account, newAddress(), limits, new Date(start + secondsAfterStart * 1000));
      return verdict;
    };
    for (let i = 0; i < 10; i++) expect((await failAt(i * 0.01)).allowed).toBe(true);
    // Ten failures: the next guess waits 1 s after the latest, then 2 s, 4 s, 8 s…
    expect(refusal(await failAt(0.5))?.reasons).toEqual(["account-delay"]);
    expect((await failAt(1.2)).allowed).toBe(true); // 11 failures now
    expect(refusal(await failAt(2.8))?.retryAfterSeconds).toBe(1); // 2 s after 1.2
    expect((await failAt(3.3)).allowed).toBe(true); // 12
    expect(refusal(await failAt(4))?.retryAfterSeconds).toBe(4); // 4 s after 3.3 = 7.3
    expect((await failAt(7.4)).allowed).toBe(true); // 13
    // With many more failures the delay stops growing at the cap.
    await prisma.authAttempt.createMany({
      data: Array.from({ length: 20 }, () => ({ kind: "password", account, address: "192.0.2.200", success: false, createdAt: new Date(start + 8000) })),
    });
    const capped = refusal(await failAt(10));
    expect(capped?.retryAfterSeconds).toBe(298); // 300 s after 8 s, asked at 10 s
  });
});

describe("password throttle: races (40 attempts at once)", () => {
  it("checks exactly ten of 40 concurrent sign-ins on one account from one address, the right password among them", async () => {
    const owner = await createTeam();
    const password = "the right password for this race";
    await prisma.user.update({ where: { id: owner.userId }, data: { passwordHash: await hashPassword(password) } });
    const ip = newAddress();
    await warmPool();
    const attempts = Array.from({ length: 40 }, (_, i) => (i === 39 ? password : `wrong password ${i}`));
    const results = await Promise.allSettled(attempts.map((guess) => signInWithPassword({ email: owner.email, password: guess }, { ip, userAgent: null })));
    const codes = results.map((result) => (result.status === "fulfilled" ? "signed-in" : (result.reason as { code?: string }).code));
    const checked = await prisma.auditLog.count({ where: { actorEmail: owner.email, action: { in: ["auth.sign_in", "auth.sign_in_failed"] } } });
    expect(checked).toBe(10);
    expect(codes.filter((code) => code === "throttled")).toHaveLength(30);
    expect(codes.filter((code) => code === "wrong_credentials" || code === "signed-in")).toHaveLength(10);
    expect(await prisma.authAttempt.count({ where: { kind: "password", account: owner.email } })).toBe(10);
  });

  it("allows exactly ten of 40 concurrent guesses on one account from 40 addresses (then the delay)", async () => {
    const account = newAccount();
    // One moment for all 40: on a loaded machine they can take over a second in turn, and the
    // first delay (1 s) would rightly let an eleventh through.
    const at = new Date();
    await warmPool();
    const verdicts = await Promise.all(Array.from({ length: 40 }, () => beginPasswordAttempt(account, newAddress(), limits, at)));
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(10);
    expect(new Set(verdicts.flatMap((verdict) => (verdict.allowed ? [] : verdict.reasons)))).toEqual(new Set(["account-delay"]));
  });

  it("allows exactly ten of 40 concurrent guesses from one address on 40 accounts", async () => {
    const ip = newAddress();
    await warmPool();
    const verdicts = await Promise.all(Array.from({ length: 40 }, () => beginPasswordAttempt(newAccount(), ip, limits)));
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(10);
  });
});

describe("sign-up throttle", () => {
  const signUpLimits = { maxSignUpsPerAddress: 10, windowSeconds: 900 };

  it("allows ten sign-ups from one address per window, then says how long to wait", async () => {
    const ip = newAddress();
    for (let i = 0; i < 10; i++) expect((await beginSignUp(newAccount(), ip, signUpLimits)).allowed).toBe(true);
    const verdict = refusal(await beginSignUp(newAccount(), ip, signUpLimits));
    expect(verdict?.retryAfterSeconds).toBeGreaterThan(890);
    expect((await beginSignUp(newAccount(), newAddress(), signUpLimits)).allowed).toBe(true);
    expect((await beginSignUp(newAccount(), ip, signUpLimits, secondsFromNow(901))).allowed).toBe(true);
  });

  it("allows exactly ten of 40 concurrent sign-ups from one address", async () => {
    const ip = newAddress();
    await warmPool();
    const verdicts = await Promise.all(Array.from({ length: 40 }, () => beginSignUp(newAccount(), ip, signUpLimits)));
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(10);
  });
});
