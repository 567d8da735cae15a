import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { basicAuthorizationHeader } from "@/lib/sandbox/core/basic-credentials";
import { OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { DEMO_CREDENTIALS, FORM, expectError, list, requestToken, startSandboxServer, tokenFor, type StartedSandbox } from "./helpers";

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

const limitHeaders = (response: Response) => ({
  limit: Number(response.headers.get("x-rate-limit-limit")),
  remaining: Number(response.headers.get("x-rate-limit-remaining")),
  reset: Number(response.headers.get("x-rate-limit-reset")),
});

describe("rate limits: 2,000 credits per 10 minutes per credential", () => {
  it("a token costs 1 credit, a listing 10; once the credits run out, a listing gets 429 with Retry-After", async () => {
    const first = await requestToken(sandbox.baseUrl, {
      authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret),
      contentType: FORM,
    });
    expect(limitHeaders(first)).toEqual({ limit: 2000, remaining: 1999, reset: 600 });
    const { access_token: token } = (await first.json()) as { access_token: string };

    const listing = await list(sandbox.baseUrl, token, "webhook-groups");
    expect(limitHeaders(listing).remaining).toBe(1989);
    // 1989 credits left: 198 more listings fit (1980), then 9 credits remain.
    for (let batch = 0; batch < 198; batch += 50) {
      const responses = await Promise.all(Array.from({ length: Math.min(50, 198 - batch) }, () => list(sandbox.baseUrl, token, "events")));
      expect(responses.every((response) => response.status === 200)).toBe(true);
    }
    const refused = await list(sandbox.baseUrl, token, "events");
    expect(limitHeaders(refused)).toMatchObject({ limit: 2000, remaining: 9 });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    await expectError(refused, 429, `Rate limit exceeded: 2000 credits per 600 seconds. Retry in ${retryAfter} seconds.`);

    // A call costing 1 still fits in the remaining 9 credits; other credentials are not affected.
    expect(
      (await requestToken(sandbox.baseUrl, { authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret), contentType: FORM }))
        .status,
    ).toBe(200);
    const otherToken = await tokenFor(sandbox.baseUrl, OTHER_CREDENTIALS);
    const other = await list(sandbox.baseUrl, otherToken, "events");
    expect(other.status).toBe(200);
    expect(limitHeaders(other).remaining).toBe(1989);
  });

  it("failed sign-ins do not spend the account's credits; they count against the caller's address", async () => {
    for (let i = 0; i < 3; i++) {
      const wrong = await requestToken(sandbox.baseUrl, { authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, "guess"), contentType: FORM });
      expect(wrong.status).toBe(401);
      expect(limitHeaders(wrong).remaining).toBe(1999 - i);
    }
    const right = await requestToken(sandbox.baseUrl, {
      authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret),
      contentType: FORM,
    });
    expect(limitHeaders(right).remaining).toBe(1999);
    // The attempts still count as token requests of that key, for client tests that count calls.
    expect((await sandbox.admin.stats()).perAccount[DEMO_CREDENTIALS.consumerKey]).toEqual({ tokenRequests: 4, apiRequests: 0, writes: 0 });
  });

  it("the window resets: a client that waits Retry-After gets its credits back", async () => {
    await sandbox.admin.setRateLimit({ credits: 25, windowSeconds: 1 });
    const token = await tokenFor(sandbox.baseUrl);
    expect((await list(sandbox.baseUrl, token, "events")).status).toBe(200);
    expect((await list(sandbox.baseUrl, token, "events")).status).toBe(200);
    const refused = await list(sandbox.baseUrl, token, "events");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    await new Promise((resolve) => setTimeout(resolve, 1050));
    const again = await list(sandbox.baseUrl, token, "events");
    expect(again.status).toBe(200);
    expect(limitHeaders(again)).toMatchObject({ limit: 25, remaining: 15 });
  });
});
