import { describe, expect, it } from "vitest";
import { computeTokenExpiry, parseDateHeader, parseExpiresAt } from "@/lib/ems/expiry";

describe("parseExpiresAt", () => {
  it.each([
    ["2026-11-21 16:04:40", "2026-11-21T16:04:40.000Z"],
    ["2026-11-21T16:04:40Z", "2026-11-21T16:04:40.000Z"],
    ["2026-11-21T16:04:40.123Z", "2026-11-21T16:04:40.123Z"],
    ["2026-11-21T18:04:40+02:00", "2026-11-21T16:04:40.000Z"],
    ["2026-11-21T11:04:40-0500", "2026-11-21T16:04:40.000Z"],
    ["2026-11-21T16:04:40", "2026-11-21T16:04:40.000Z"],
    ["2026-11-21 16:04:40 UTC", "2026-11-21T16:04:40.000Z"],
    [" 2026-11-21 16:04:40 ", "2026-11-21T16:04:40.000Z"],
  ])("reads %j as UTC", (input, iso) => {
    expect(parseExpiresAt(input)?.toISOString()).toBe(iso);
  });

  it.each([["2026-02-30 10:00:00"], ["2026-11-21"], ["yesterday"], [""], ["2026-11-21 25:00:00"], ["2026-11-21T10:00:00+25:00"]])("rejects %j", (input) => {
    expect(parseExpiresAt(input)).toBeNull();
  });

  it("rejects non-strings", () => {
    expect(parseExpiresAt(1_800_000_000)).toBeNull();
    expect(parseExpiresAt(null)).toBeNull();
  });
});

describe("computeTokenExpiry", () => {
  const sent = Date.UTC(2026, 10, 21, 16, 0, 0);
  const minutes = (n: number) => n * 60_000;

  it("corrects for a server clock that is ahead or behind, using its Date header", () => {
    for (const offset of [minutes(10), minutes(-10), 0]) {
      const serverNow = new Date(sent + offset);
      const expiresAt = new Date(serverNow.getTime() + minutes(30));
      const expiry = computeTokenExpiry({ expiresAt, serverDate: serverNow, requestSentAt: sent });
      expect(expiry).toBe(sent + minutes(30) - 1000);
    }
  });

  it("never trusts a token for more than 30 minutes after the request was sent", () => {
    expect(computeTokenExpiry({ expiresAt: new Date(sent + minutes(90)), serverDate: new Date(sent), requestSentAt: sent })).toBe(sent + minutes(30));
    expect(computeTokenExpiry({ expiresAt: new Date(sent + minutes(40)), serverDate: null, requestSentAt: sent })).toBe(sent + minutes(30));
    expect(computeTokenExpiry({ expiresAt: null, serverDate: new Date(sent), requestSentAt: sent })).toBe(sent + minutes(30));
  });

  it("keeps a shorter lifetime the server gives", () => {
    expect(computeTokenExpiry({ expiresAt: new Date(sent + 60_000), serverDate: new Date(sent), requestSentAt: sent })).toBe(sent + 59_000);
    expect(computeTokenExpiry({ expiresAt: new Date(sent + 60_000), serverDate: null, requestSentAt: sent })).toBe(sent + 60_000);
  });
});

describe("parseDateHeader", () => {
  it("reads an IMF-fixdate and ignores junk", () => {
    expect(parseDateHeader("Sat, 21 Nov 2026 16:04:40 GMT")?.toISOString()).toBe("2026-11-21T16:04:40.000Z");
    expect(parseDateHeader("junk")).toBeNull();
    expect(parseDateHeader(null)).toBeNull();
  });
});
