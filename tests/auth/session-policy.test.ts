// The session lifetime rule (lib/auth/session-policy.ts): idle timeout, maximum age, ending.
// tests/auth/session.db.test.ts checks that the SQL of every request agrees with it.
import { describe, expect, it } from "vitest";
import { isSessionOpen, lastSeenWriteIntervalSeconds, sessionEnd } from "@/lib/auth/session-policy";

const DAY = 24 * 3600;
const policy = { idleSeconds: 7 * DAY, maxAgeSeconds: 30 * DAY };
const now = new Date("2026-11-23T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("isSessionOpen", () => {
  it("keeps a session used within the idle timeout, and ends it once idle that long", () => {
    const createdAt = ago(10 * DAY);
    expect(isSessionOpen({ createdAt, lastSeenAt: ago(7 * DAY - 1), revokedAt: null }, now, policy)).toBe(true);
    expect(isSessionOpen({ createdAt, lastSeenAt: ago(7 * DAY), revokedAt: null }, now, policy)).toBe(false);
    expect(isSessionOpen({ createdAt, lastSeenAt: ago(8 * DAY), revokedAt: null }, now, policy)).toBe(false);
  });

  it("ends a session at its maximum age however recently it was used", () => {
    expect(isSessionOpen({ createdAt: ago(30 * DAY - 1), lastSeenAt: ago(60), revokedAt: null }, now, policy)).toBe(true);
    expect(isSessionOpen({ createdAt: ago(30 * DAY), lastSeenAt: ago(60), revokedAt: null }, now, policy)).toBe(false);
  });

  it("ends a revoked session at once", () => {
    expect(isSessionOpen({ createdAt: ago(60), lastSeenAt: ago(1), revokedAt: ago(0) }, now, policy)).toBe(false);
  });

  it("follows a configured idle timeout (15 minutes)", () => {
    const short = { idleSeconds: 15 * 60, maxAgeSeconds: DAY };
    expect(isSessionOpen({ createdAt: ago(3600), lastSeenAt: ago(14 * 60), revokedAt: null }, now, short)).toBe(true);
    expect(isSessionOpen({ createdAt: ago(3600), lastSeenAt: ago(16 * 60), revokedAt: null }, now, short)).toBe(false);
  });
});

describe("sessionEnd", () => {
  it("is the earliest of going idle, expiring and being ended, with the reason", () => {
    expect(sessionEnd({ createdAt: ago(DAY), lastSeenAt: ago(3600), revokedAt: null }, policy)).toEqual({
      at: new Date(ago(3600).getTime() + 7 * DAY * 1000),
      reason: "idle",
    });
    expect(sessionEnd({ createdAt: ago(29 * DAY), lastSeenAt: ago(60), revokedAt: null }, policy)).toEqual({
      at: new Date(ago(29 * DAY).getTime() + 30 * DAY * 1000),
      reason: "expired",
    });
    expect(sessionEnd({ createdAt: ago(DAY), lastSeenAt: ago(60), revokedAt: ago(30) }, policy)).toEqual({ at: ago(30), reason: "revoked" });
  });
});

describe("lastSeenWriteIntervalSeconds", () => {
  it("is five minutes for long timeouts and a twelfth of short ones, so a session is never judged idle much early", () => {
    expect(lastSeenWriteIntervalSeconds(policy)).toBe(300);
    expect(lastSeenWriteIntervalSeconds({ idleSeconds: 15 * 60, maxAgeSeconds: DAY })).toBe(75);
    expect(lastSeenWriteIntervalSeconds({ idleSeconds: 300, maxAgeSeconds: DAY })).toBe(25);
  });
});
