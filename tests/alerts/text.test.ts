// The alert's text and the Slack URL's rules, without a database or a network.
import { describe, expect, it } from "vitest";
import { alertBody, alertSubject, slackText } from "@/lib/alerts/compose";
import { checkSlackUrl, withoutSlackUrl } from "@/lib/alerts/slack-url";
import { alertDestinationPolicy } from "@/lib/ems/destination";

describe("alertBody", () => {
  it("keeps each line one line: a line break or control character inside a line cannot add lines or headers", () => {
    const body = alertBody({ subject: "Changes\r\nBcc: someone@example.com", lines: ["a\nb", "c\u0000d\u202Ee"], link: "https://portal.example.test/changes" });
    expect(body.split("\n")).toEqual(["Changes Bcc: someone@example.com", "", "a b", "c de", "", "https://portal.example.test/changes"]);
    expect(alertSubject("  ")).toBe("EMS Portal alert");
    expect(alertSubject("x".repeat(300))).toHaveLength(200);
  });

  // Issue 24, finding 8: the same rule as every shown text (U+200E/U+200F, U+061C, U+2060 passed before).
  it("removes every bidi control and invisible character, so a name cannot pose as another in a mail", () => {
    const body = alertBody({
      subject: "Changes by \u200Fadmin",
      lines: ["Hook \u061Cal\u2060ice renamed", "by \u202Enimda"],
      link: "https://portal.example.test/changes",
    });
    expect(body.split("\n").slice(0, 4)).toEqual(["Changes by admin", "", "Hook alice renamed", "by nimda"]);
  });

  it("escapes Slack's control characters", () => {
    expect(slackText("<!here> & <https://evil.example|ok>")).toBe("&lt;!here&gt; &amp; &lt;https://evil.example|ok&gt;");
  });
});

describe("checkSlackUrl", () => {
  const policy = { allowedHosts: null, privateOrigins: ["http://127.0.0.1:4010"], sandboxOrigins: [] };

  it("takes a public HTTPS URL and labels it by its origin; drops a fragment", () => {
    expect(checkSlackUrl(" https://hooks.slack.com/services/T/B/x#frag ", policy)).toEqual({
      ok: true,
      url: "https://hooks.slack.com/services/T/B/x",
      label: "https://hooks.slack.com",
    });
  });

  it("lets an origin the operator listed through, over HTTP and on loopback, and nothing else there", () => {
    expect(checkSlackUrl("http://127.0.0.1:4010/hook", policy)).toMatchObject({ ok: true, label: "http://127.0.0.1:4010" });
    expect(checkSlackUrl("http://127.0.0.1:4011/hook", policy)).toMatchObject({ ok: false });
  });

  it("ignores EMS_ALLOWED_HOSTS, which names the EMS's hosts", () => {
    expect(alertDestinationPolicy({ EMS_ALLOWED_HOSTS: "api.example.com", EMS_ALLOW_PRIVATE_ORIGINS: "http://127.0.0.1:4010" })).toEqual({
      allowedHosts: null,
      privateOrigins: ["http://127.0.0.1:4010"],
      sandboxOrigins: [],
    });
  });
});

describe("withoutSlackUrl", () => {
  it("takes the URL, its path and its token out of a message, encoded or not", () => {
    const url = "https://hooks.slack.com/services/T0ABC/B0DEF/s3cretT0ken%2Bx";
    for (const message of [`failed for ${url}`, "POST /services/T0ABC/B0DEF/s3cretT0ken%2Bx failed", "token s3cretT0ken+x refused", "B0DEF/s3cretT0ken%2Bx"]) {
      const clean = withoutSlackUrl(message, url);
      expect(clean).not.toContain("s3cretT0ken");
      expect(clean).toContain("[the Slack URL]");
    }
    expect(withoutSlackUrl("answered 500", url)).toBe("answered 500");
  });
});
