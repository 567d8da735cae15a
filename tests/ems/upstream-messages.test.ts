// What an EMS API's error answer may put in front of a person: only the `message` of the contract's
// error shape (docs/ems-api.md §6), cleaned and at most 200 characters; never a raw body.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CredentialsRejectedError, EmsBadRequestError } from "@/lib/ems/errors";
import { MAX_API_MESSAGE_LENGTH } from "@/lib/ems/responses";
import { requestToken } from "@/lib/ems/token-endpoint";
import { allowPrivateOrigin, ensureEmsTestEnv } from "./support/env";
import { startLocalServer, type LocalServer } from "./support/local-server";

let answer: { status: number; type: string; body: string } = { status: 200, type: "application/json", body: "{}" };
let upstream: LocalServer;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  ensureEmsTestEnv();
  upstream = await startLocalServer((_request, response) => {
    response.writeHead(answer.status, { "content-type": answer.type });
    response.end(answer.body);
  });
  cleanups.push(allowPrivateOrigin(upstream.origin), () => upstream.close());
  return async () => {
    while (cleanups.length) await cleanups.pop()!();
  };
});
afterEach(() => {
  answer = { status: 200, type: "application/json", body: "{}" };
});

const credential = () => ({ fingerprint: "upstream-messages", baseUrl: upstream.origin, consumerKey: "key", consumerSecret: "secret" });

async function tokenError(): Promise<Error> {
  return requestToken(credential(), "test").then(
    () => {
      throw new Error("expected the token request to fail");
    },
    (error: Error) => error,
  );
}

const HOSTILE = `Bad request\u0000\u001b[31m\r\nSet-Cookie: x=1 \u202egnp.exe\u200b ${"A".repeat(5_000)}`;

describe("an EMS API's error message", () => {
  it("reaches the user cleaned of control and invisible characters, and cut to 200 characters", async () => {
    answer = { status: 400, type: "application/json", body: JSON.stringify({ name: "Bad Request", message: HOSTILE, code: 0, status: 400 }) };
    const error = (await tokenError()) as EmsBadRequestError;
    expect(error).toBeInstanceOf(EmsBadRequestError);
    expect([...error.apiMessage]).toHaveLength(MAX_API_MESSAGE_LENGTH);
    expect(error.apiMessage).toMatch(/^Bad request \[31m Set-Cookie: x=1 gnp\.exe A+…$/);
    expect(error.userMessage).toBe(`The EMS API refused the request: ${error.apiMessage}`);
    expect(error.userMessage).not.toMatch(/[\u0000-\u001f\u007f\u202e\u200b]/);
  });

  it("in a refused token request, is cleaned the same way before it is kept as the credential's failure", async () => {
    answer = { status: 401, type: "application/json", body: JSON.stringify({ name: "Unauthorized", message: HOSTILE, code: 0, status: 401 }) };
    const error = (await tokenError()) as CredentialsRejectedError;
    expect(error).toBeInstanceOf(CredentialsRejectedError);
    expect(error.detail!.length).toBeLessThan(MAX_API_MESSAGE_LENGTH + 50);
    expect(error.detail).not.toMatch(/[\u0000-\u001f\u007f\u202e\u200b]/);
  });

  it("is never a raw body: an HTML page or JSON without a message shows only the status", async () => {
    answer = { status: 404, type: "text/html", body: "<html><h1>Internal admin</h1><p>db password: hunter2</p></html>" };
    expect(((await tokenError()) as EmsBadRequestError).userMessage).toBe("The EMS API refused the request: the token endpoint answered 404");
    answer = { status: 403, type: "application/json", body: JSON.stringify({ users: [{ name: "admin", password: "hunter2" }] }) };
    const rejected = (await tokenError()) as CredentialsRejectedError;
    expect(rejected.detail).toBe("The token request was refused (403).");
    expect(JSON.stringify(rejected)).not.toContain("hunter2");
  });
});
