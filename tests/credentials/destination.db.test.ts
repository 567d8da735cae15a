// A self-registered user once saved http://127.0.0.1:4999/internal-admin as their
// base URL, and the server POSTed Basic credentials there and rendered the answer. The destination
// policy (lib/ems/destination.ts) now refuses such a URL when it is saved and, for a row saved
// before the rule or under a laxer configuration, at every call; nothing reaches the address.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { saveCredential, testCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { BlockedDestinationError } from "@/lib/ems";
import { setHostResolver } from "@/lib/ems/outbound";
import { FieldError } from "@/lib/errors";
import { allowPrivateOrigin } from "@/tests/ems/support/env";
import { json, startLocalServer, type LocalServer } from "@/tests/ems/support/local-server";
import { createTeam } from "../teams/fixtures";

let internalAdmin: LocalServer;
beforeAll(async () => {
  internalAdmin = await startLocalServer(json(200, [{ id: 1, name: "root", password_hash: "…" }]));
});
afterAll(() => internalAdmin?.close());

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function fieldError(promise: Promise<unknown>): Promise<FieldError> {
  const error = await promise.then(
    () => null,
    (rejected: unknown) => rejected,
  );
  expect(error).toBeInstanceOf(FieldError);
  expect((error as FieldError).field).toBe("baseUrl");
  return error as FieldError;
}

const credentials = { consumerKey: "key", consumerSecret: "secret" };

describe("a base URL on a private network", () => {
  it("is refused when it is saved, with a message on the Base URL field, and nothing is stored or sent", async () => {
    const owner = await createTeam();
    const internal = `${internalAdmin.origin}/internal-admin`;
    expect((await fieldError(saveCredential(owner, { baseUrl: internal, ...credentials }))).message).toMatch(/must use HTTPS/);
    expect((await fieldError(saveCredential(owner, { baseUrl: internal.replace("http:", "https:"), ...credentials }))).message).toMatch(
      /^That address is on a private network/,
    );
    expect((await fieldError(saveCredential(owner, { baseUrl: "https://169.254.169.254/latest", ...credentials }))).message).toMatch(/private network/);
    expect((await fieldError(saveCredential(owner, { baseUrl: "https://metadata.google.internal", ...credentials }))).message).toMatch(/private network/);
    expect(await prisma.apiCredential.count({ where: { userId: owner.userId } })).toBe(0);
    expect(internalAdmin.connections).toBe(0);
  });

  it("is refused when it is saved if its host name resolves to a private address (DNS checked on save)", async () => {
    const owner = await createTeam();
    const asked: string[] = [];
    const previous = setHostResolver(async (host) => {
      asked.push(host);
      return [
        { address: "203.0.113.80", family: 4 },
        { address: host === "ems.corp.example.com" ? "10.20.30.40" : "93.184.215.14", family: 4 },
      ];
    });
    cleanups.push(() => setHostResolver(previous));
    const error = await fieldError(saveCredential(owner, { baseUrl: "https://ems.corp.example.com", ...credentials }));
    expect(error.message).toBe(
      "That address is on a private network (or is reserved), and the portal does not connect to such addresses. Enter the public address of your EMS API.",
    );
    expect(asked).toEqual(["ems.corp.example.com"]);
    expect(await prisma.apiCredential.count({ where: { userId: owner.userId } })).toBe(0);
  });

  it("saved before the rule (or while its origin was listed) is refused at every call, and nothing reaches it", async () => {
    const owner = await createTeam();
    const internal = `${internalAdmin.origin}/internal-admin`;
    // Stored the only way it still can be: while an operator listed the origin.
    const withdraw = allowPrivateOrigin(internalAdmin.origin);
    await saveCredential(owner, { baseUrl: internal, ...credentials });
    withdraw();

    const tested = await testCredential(owner);
    expect(tested).toMatchObject({ ok: false, message: expect.stringMatching(/^The portal will not connect to the saved base URL\. The base URL must use HTTPS/) });
    expect((await prisma.apiCredential.findUniqueOrThrow({ where: { userId: owner.userId } })).lastError).toBe(tested.ok ? null : tested.message);

    const client = await getEmsClientForActor(owner);
    const listing = await client!.listWebhookGroups().catch((error: unknown) => error);
    expect(listing).toBeInstanceOf(BlockedDestinationError);
    expect(internalAdmin.requests).toEqual([]);
    expect(internalAdmin.connections).toBe(0);
  });
});
