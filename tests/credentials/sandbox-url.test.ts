import { afterEach, describe, expect, it } from "vitest";
import { sandboxBaseUrl } from "@/lib/credentials/sandbox";

process.env.NEXTAUTH_SECRET ||= "a-test-only-secret-of-at-least-32-characters";
const saved = process.env.NEXTAUTH_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.NEXTAUTH_URL;
  else process.env.NEXTAUTH_URL = saved;
});

describe("sandboxBaseUrl", () => {
  it("never takes the host or scheme from X-Forwarded-* headers a client can send", () => {
    delete process.env.NEXTAUTH_URL;
    const headers = new Headers({ host: "localhost:3000", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });
    expect(sandboxBaseUrl(headers)).toBe("http://localhost:3000/sandbox");
  });

  it("uses the configured public address when there is one, whatever the request says", () => {
    process.env.NEXTAUTH_URL = "https://portal.example.com/";
    expect(sandboxBaseUrl(new Headers({ host: "evil.example" }))).toBe("https://portal.example.com/sandbox");
  });
});
