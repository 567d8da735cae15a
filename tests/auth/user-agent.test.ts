// The sessions page's words for a User-Agent header (lib/auth/user-agent.ts).
import { describe, expect, it } from "vitest";
import { describeUserAgent } from "@/lib/auth/user-agent";
import { durationWords, exactUtc, relativeTo } from "@/lib/auth/session-times";

describe("describeUserAgent", () => {
  it.each([
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox 128 on macOS", "desktop"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Edge 126 on Windows 10",
      "desktop",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome 131 on Linux", "desktop"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari 17 on iOS 17 (iPhone)",
      "mobile",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
      "Chrome 126 on Android 14 (Pixel 8)",
      "mobile",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36", "Headless Chrome 131 on Linux", "desktop"],
  ])("%s → %s", (header, summary, kind) => {
    expect(describeUserAgent(header)).toEqual({ summary, kind });
  });

  it("says 'Unknown browser' for no header, a tool, or anything it does not know, and never repeats the header", () => {
    for (const header of [null, undefined, "", "curl/8.5.0", "vitest (tests/actions)", "<script>alert(1)</script>", "ブラウザ 🦊 ".repeat(500)]) {
      expect(describeUserAgent(header).summary).toBe("Unknown browser");
    }
  });

  it("reads only the first kilobyte of a huge header", () => {
    const huge = `Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0 ${"x".repeat(100_000)}`;
    expect(describeUserAgent(huge).summary).toBe("Firefox 128 on macOS");
  });
});

describe("session times", () => {
  const now = new Date("2026-11-23T16:40:00Z");
  it("relative words beside the exact time in UTC", () => {
    expect(relativeTo(new Date("2026-11-23T16:39:30Z"), now)).toBe("just now");
    expect(relativeTo(new Date("2026-11-23T16:35:00Z"), now)).toBe("5 minutes ago");
    expect(relativeTo(new Date("2026-11-22T16:00:00Z"), now)).toBe("yesterday");
    expect(relativeTo(new Date("2026-11-20T09:12:00Z"), now)).toBe("3 days ago");
    expect(exactUtc(new Date("2026-11-20T09:12:00Z"))).toBe("20 Nov 2026, 09:12 UTC");
  });

  it("durations in the largest whole unit", () => {
    expect(durationWords(7 * 24 * 3600)).toBe("7 days");
    expect(durationWords(30 * 24 * 3600)).toBe("30 days");
    expect(durationWords(12 * 3600)).toBe("12 hours");
    expect(durationWords(15 * 60)).toBe("15 minutes");
    expect(durationWords(1)).toBe("0 minutes");
  });
});
