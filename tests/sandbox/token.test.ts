import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { basicAuthorizationHeader } from "@/lib/sandbox/core/basic-credentials";
import { OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { DEMO_CREDENTIALS, FORM, expectError, list, requestToken, startSandboxServer, type StartedSandbox } from "./helpers";

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

const demoBasic = basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret);
const rawBasic = (text: string) => `Basic ${Buffer.from(text, "utf8").toString("base64")}`;

describe("POST /api/v1/oauth2/token", () => {
  it("issues a bearer token that expires 30 minutes later, in the production format", async () => {
    const before = Date.now();
    const response = await requestToken(sandbox.baseUrl, { authorization: demoBasic, contentType: FORM });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { access_token: string; type: string; expires_at: string };
    expect(body.type).toBe("bearer");
    expect(body.access_token.length).toBeGreaterThan(20);
    expect(body.expires_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const expiresAt = Date.parse(`${body.expires_at.replace(" ", "T")}Z`);
    expect(expiresAt - before).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
    expect(expiresAt - before).toBeLessThanOrEqual(30 * 60_000 + 2000);
  });

  it("gives a client that sends a space as + a working token", async () => {
    // Form-encoding style: space -> "+", "+" -> "%2B" and the rest percent-encoded.
    const formEncoded = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
    const header = rawBasic(`${formEncoded(DEMO_CREDENTIALS.consumerKey)}:${formEncoded(DEMO_CREDENTIALS.consumerSecret)}`);
    expect(Buffer.from(header.slice(6), "base64").toString()).toContain("s3cret+pass%2B");
    const response = await requestToken(sandbox.baseUrl, { authorization: header, contentType: FORM });
    expect(response.status).toBe(200);
  });

  it("accepts %20 for a space and lower-case hex, and splits at the first colon", async () => {
    const header = rawBasic(`ems_demo_key:s3cret%20pass%2b%2f%3d%3a%25%26%c3%a9`);
    expect((await requestToken(sandbox.baseUrl, { authorization: header, contentType: FORM })).status).toBe(200);
    // An unencoded ":" in the secret is fine too, because only the first colon splits.
    const unencodedColon = rawBasic(`ems_demo_key:s3cret%20pass%2B/=:%25%26%C3%A9`);
    expect((await requestToken(sandbox.baseUrl, { authorization: unencodedColon, contentType: FORM })).status).toBe(200);
  });

  it("gives every request a new, distinct token; 100 concurrent requests get 100 tokens", async () => {
    const responses = await Promise.all(Array.from({ length: 100 }, () => requestToken(sandbox.baseUrl, { authorization: demoBasic, contentType: FORM })));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const tokens = await Promise.all(responses.map(async (response) => ((await response.json()) as { access_token: string }).access_token));
    expect(new Set(tokens).size).toBe(100);
    // Earlier tokens stay valid until their own expiry.
    expect((await list(sandbox.baseUrl, tokens[0], "events")).status).toBe(200);
    expect((await list(sandbox.baseUrl, tokens[99], "events")).status).toBe(200);
  });

  it("401 for a wrong secret, an unknown key, and a secret that lacks the + decoding", async () => {
    await expectError(
      await requestToken(sandbox.baseUrl, { authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, "wrong"), contentType: FORM }),
      401,
      "Your API credentials are wrong.",
    );
    await expectError(
      await requestToken(sandbox.baseUrl, { authorization: basicAuthorizationHeader("nobody", DEMO_CREDENTIALS.consumerSecret), contentType: FORM }),
      401,
      "Your API credentials are wrong.",
    );
    // A literal "+" that was not sent as %2B decodes to a space, so the secret no longer matches.
    await expectError(
      await requestToken(sandbox.baseUrl, { authorization: rawBasic("ems_demo_key:s3cret%20pass+/=:%25%26%C3%A9"), contentType: FORM }),
      401,
      "Your API credentials are wrong.",
    );
    // Another account's secret does not open this account.
    await expectError(
      await requestToken(sandbox.baseUrl, { authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, OTHER_CREDENTIALS.consumerSecret), contentType: FORM }),
      401,
      "Your API credentials are wrong.",
    );
  });

  it("401 for missing or malformed Basic credentials", async () => {
    const missing = "Send the consumer key and secret as Authorization: Basic <Base64 of key:secret>.";
    const malformed = "The Authorization header is not valid Basic credentials (Base64 of <key>:<secret>).";
    await expectError(await requestToken(sandbox.baseUrl, { contentType: FORM }), 401, missing);
    await expectError(await requestToken(sandbox.baseUrl, { authorization: "Bearer abc", contentType: FORM }), 401, missing);
    await expectError(await requestToken(sandbox.baseUrl, { authorization: "Basic", contentType: FORM }), 401, malformed);
    await expectError(await requestToken(sandbox.baseUrl, { authorization: "Basic not*base64!", contentType: FORM }), 401, malformed);
    await expectError(await requestToken(sandbox.baseUrl, { authorization: rawBasic("no-colon-here"), contentType: FORM }), 401, malformed);
    await expectError(await requestToken(sandbox.baseUrl, { authorization: rawBasic("ems_demo_key:bad%zzescape"), contentType: FORM }), 401, malformed);
    await expectError(await requestToken(sandbox.baseUrl, { authorization: rawBasic(":secret"), contentType: FORM }), 401, malformed);
  });

  it("405 with Allow: POST for any other method", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const response = await requestToken(sandbox.baseUrl, { method, authorization: demoBasic, contentType: FORM });
      expect(response.headers.get("allow")).toBe("POST");
      await expectError(response, 405, `Method ${method} is not allowed here; use POST.`);
    }
  });

  it("415 for a Content-Type other than form-urlencoded", async () => {
    await expectError(
      await requestToken(sandbox.baseUrl, { authorization: demoBasic, contentType: "application/json", body: '{"grant_type":"client_credentials"}' }),
      415,
      'Content-Type must be application/x-www-form-urlencoded;charset=UTF-8, not "application/json".',
    );
    // fetch sends text/plain for a string body when no Content-Type is set.
    await expectError(
      await requestToken(sandbox.baseUrl, { authorization: demoBasic }),
      415,
      'Content-Type must be application/x-www-form-urlencoded;charset=UTF-8, not "text/plain;charset=UTF-8".',
    );
    await expectError(
      await requestToken(sandbox.baseUrl, { authorization: demoBasic, contentType: "application/x-www-form-urlencoded; charset=ISO-8859-1" }),
      415,
      'Only the UTF-8 charset is supported, not "iso-8859-1".',
    );
    // Without a charset parameter, or in another letter case, it is fine.
    expect((await requestToken(sandbox.baseUrl, { authorization: demoBasic, contentType: "Application/X-WWW-Form-Urlencoded" })).status).toBe(200);
  });

  it("400 unless the body is exactly grant_type=client_credentials", async () => {
    const send = (body: string) => requestToken(sandbox.baseUrl, { authorization: demoBasic, contentType: FORM, body });
    await expectError(await send(""), 400, "Missing grant_type: the body must be exactly grant_type=client_credentials.");
    await expectError(await send("grant_type=password"), 400, 'Unsupported grant_type "password": only client_credentials is supported.');
    await expectError(
      await send("grant_type=client_credentials&scope=all"),
      400,
      'The body must hold exactly one field, grant_type=client_credentials; unexpected field "scope".',
    );
    await expectError(
      await send("grant_type=client_credentials&grant_type=client_credentials"),
      400,
      "grant_type is given more than once: the body must be exactly grant_type=client_credentials.",
    );
  });

  it("sends the rate-limit headers on every answer, errors included", async () => {
    const ok = await requestToken(sandbox.baseUrl, { authorization: demoBasic, contentType: FORM });
    const failed = await requestToken(sandbox.baseUrl, { method: "GET" });
    for (const response of [ok, failed]) {
      expect(response.headers.get("x-rate-limit-limit")).toBe("2000");
      expect(Number(response.headers.get("x-rate-limit-remaining"))).toBeLessThan(2000);
      expect(Number(response.headers.get("x-rate-limit-reset"))).toBeGreaterThan(0);
    }
  });
});
