// One date format everywhere (lib/time/format.ts): "27 Nov 2026, 14:05", 24-hour, in the viewer's
// zone; the "as of" picker's ISO form; an event's wall clock as a moment; the cookie's zone or UTC.
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, isoMinute, isTimeZone, viewerZoneOf, wallClockInZone, zoneAbbreviation } from "@/lib/time/format";

const moment = new Date("2026-11-27T14:05:42Z");

describe("formatDateTime", () => {
  it("writes day, short month, year and a 24-hour time in the zone asked for", () => {
    expect(formatDateTime(moment, "UTC")).toBe("27 Nov 2026, 14:05");
    expect(formatDateTime(moment, "Europe/Berlin")).toBe("27 Nov 2026, 15:05");
    expect(formatDateTime(moment, "America/Los_Angeles")).toBe("27 Nov 2026, 06:05");
    // Across midnight the day moves too.
    expect(formatDateTime(moment, "Pacific/Kiritimati")).toBe("28 Nov 2026, 04:05");
    expect(formatDateTime(new Date("2026-09-03T00:00:00Z"), "UTC")).toBe("3 Sep 2026, 00:00");
  });

  it("reads the EMS's UTC timestamps and ISO strings, and is empty for what is not a moment", () => {
    expect(formatDateTime("2026-11-27 14:05:00", "UTC")).toBe("27 Nov 2026, 14:05");
    expect(formatDateTime("2026-11-27T14:05:00+01:00", "UTC")).toBe("27 Nov 2026, 13:05");
    expect(formatDateTime("yesterday", "UTC")).toBe("");
    expect(formatDateTime(null, "UTC")).toBe("");
    expect(formatDateTime(moment, "Not/AZone")).toBe("27 Nov 2026, 14:05");
  });

  it("writes dates alone the same way", () => {
    expect(formatDate(moment, "Europe/Berlin")).toBe("27 Nov 2026");
  });
});

describe("isoMinute", () => {
  it("is the as-of picker's 24-hour ISO form in the zone", () => {
    expect(isoMinute(moment, "UTC")).toBe("2026-11-27T14:05");
    expect(isoMinute(new Date("2026-01-05T23:30:00Z"), "Europe/Berlin")).toBe("2026-01-06T00:30");
  });
});

describe("wallClockInZone", () => {
  it("turns an event's local date and time into the moment it names, DST included", () => {
    expect(wallClockInZone("2026-11-27", "14:05", "Europe/Berlin")?.toISOString()).toBe("2026-11-27T13:05:00.000Z");
    expect(wallClockInZone("2026-07-01", "09:00:00", "Europe/Berlin")?.toISOString()).toBe("2026-07-01T07:00:00.000Z");
    expect(wallClockInZone("2026-07-01", "09:00", "America/New_York")?.toISOString()).toBe("2026-07-01T13:00:00.000Z");
    expect(wallClockInZone("2026-07-01", "", "UTC")?.toISOString()).toBe("2026-07-01T00:00:00.000Z");
    expect(wallClockInZone("not a date", "09:00", "UTC")).toBeNull();
  });
});

describe("zones", () => {
  it("names a zone's abbreviation at a moment", () => {
    expect(zoneAbbreviation(moment, "UTC")).toBe("UTC");
    expect(zoneAbbreviation(moment, "America/Los_Angeles")).toBe("PST");
  });

  it("takes the browser's zone from the cookie, and falls back to UTC, saying so", () => {
    expect(viewerZoneOf("Europe%2FBerlin")).toEqual({ zone: "Europe/Berlin", known: true });
    expect(viewerZoneOf("Asia/Tokyo")).toEqual({ zone: "Asia/Tokyo", known: true });
    expect(viewerZoneOf(undefined)).toEqual({ zone: "UTC", known: false });
    expect(viewerZoneOf("Mars/Olympus")).toEqual({ zone: "UTC", known: false });
    expect(viewerZoneOf("%E0%A4%A")).toEqual({ zone: "UTC", known: false });
    expect(isTimeZone("x".repeat(100))).toBe(false);
  });
});
