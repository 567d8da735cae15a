import { describe, expect, it } from "vitest";
import { checkBaseUrl } from "@/lib/ems/contract";
import { checkEmsBaseUrl, type DestinationPolicy } from "@/lib/ems/destination";
import { saveCredentialsSchema } from "@/lib/actions/credentials/save-credentials.validation";
import { createInvitationSchema } from "@/lib/actions/team/create-invitation.validation";

describe("the form of a base URL (docs/ems-api.md §1)", () => {
  it.each([
    ["https://api.example.com", "https://api.example.com"],
    ["https://api.example.com/", "https://api.example.com"],
    ["  https://api.example.com/prefix//  ", "https://api.example.com/prefix"],
    ["http://localhost:3000/sandbox", "http://localhost:3000/sandbox"],
    ["http://127.0.0.1:4010", "http://127.0.0.1:4010"],
    ["http://[::1]:4010", "http://[::1]:4010"],
    // The form only: whether the portal may connect there is the destination policy's question (below).
    ["http://api.example.com", "http://api.example.com"],
  ])("accepts %s as %s", (input, expected) => {
    expect(checkBaseUrl(input)).toEqual({ ok: true, baseUrl: expected });
  });

  it.each([
    ["", /Enter the base URL/],
    ["api.example.com", /not a URL/],
    ["ftp://api.example.com", /must start with https/],
    ["https://user:pw@api.example.com", /user name and password/],
    ["https://api.example.com/?x=1", /query/],
    ["https://api.example.com/api/v1", /Leave out \/api\/v1/],
  ])("refuses %s with a message that says what to fix", (input, message) => {
    const checked = checkBaseUrl(input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toMatch(message);
  });
});

describe("the portal's rule for a base URL: its form, then the destination policy (no DNS)", () => {
  const policy: DestinationPolicy = { allowedHosts: null, privateOrigins: ["http://127.0.0.1:4010"], sandboxOrigins: ["http://localhost:3000"] };

  it.each([
    ["https://api.example.com/", "https://api.example.com"],
    ["http://localhost:3000/sandbox", "http://localhost:3000/sandbox"],
    ["http://127.0.0.1:4010/anything", "http://127.0.0.1:4010/anything"],
  ])("accepts %s", (input, expected) => {
    expect(checkEmsBaseUrl(input, policy)).toEqual({ ok: true, baseUrl: expected });
  });

  it.each([
    ["http://api.example.com", /must use HTTPS/],
    ["http://localhost.example.com", /must use HTTPS/],
    ["http://127.0.0.1:4999/internal-admin", /must use HTTPS/],
    ["https://127.0.0.1:4999/internal-admin", /private network/],
    ["http://localhost:3000/internal-admin", /only the built-in sandbox/],
    ["https://169.254.169.254", /private network/],
    ["https://metadata.google.internal", /private network/],
    ["api.example.com", /not a URL/],
  ])("refuses %s with a message that says what to fix", (input, message) => {
    const checked = checkEmsBaseUrl(input, policy);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toMatch(message);
  });
});

describe("form schemas", () => {
  it("names the field of each mistake, and keeps the secret exactly as typed", () => {
    const bad = saveCredentialsSchema.safeParse({ baseUrl: "http://api.example.com", consumerKey: "  ", consumerSecret: "" });
    expect(bad.success).toBe(false);
    const fields = bad.error!.issues.map((issue) => issue.path.join("."));
    expect(fields).toEqual(expect.arrayContaining(["baseUrl", "consumerKey", "consumerSecret"]));
    const good = saveCredentialsSchema.parse({ baseUrl: "https://api.example.com/", consumerKey: " key ", consumerSecret: " sec ret " });
    expect(good).toEqual({ baseUrl: "https://api.example.com", consumerKey: "key", consumerSecret: " sec ret ", saveAnyway: false });
    expect(saveCredentialsSchema.parse({ baseUrl: "https://api.example.com", consumerKey: "k", consumerSecret: "s", saveAnyway: "1" }).saveAnyway).toBe(true);
  });

  it("accepts an invitation without an address and refuses an unknown role", () => {
    expect(createInvitationSchema.parse({ role: "MEMBER", email: "" })).toEqual({ role: "MEMBER", email: undefined });
    expect(createInvitationSchema.parse({ role: "ADMIN", email: " A@Example.com " })).toEqual({ role: "ADMIN", email: "a@example.com" });
    expect(createInvitationSchema.safeParse({ role: "SUPERUSER" }).success).toBe(false);
    expect(createInvitationSchema.safeParse({ role: "MEMBER", email: "not-an-address" }).success).toBe(false);
  });
});
