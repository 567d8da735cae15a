// The credential actions (lib/actions/credentials/*), called as a crafted direct request would call
// them, against a real sandbox served under /sandbox as the portal embeds it.
import { describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => import("./support/next-cache"));

import { revalidatePath } from "next/cache";
import { prisma } from "@/lib/db/prisma";
import { applySandboxCredentialsAction } from "@/lib/actions/credentials/apply-sandbox-credentials";
import { deleteCredentialsAction } from "@/lib/actions/credentials/delete-credentials";
import { saveCredentialsAction } from "@/lib/actions/credentials/save-credentials";
import { testConnectionAction } from "@/lib/actions/credentials/test-connection";
import { saveCredential } from "@/lib/credentials/store";
import { credentialFingerprint } from "@/lib/ems";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { call, expectSignInRedirect } from "./support/call";
import { signedOutBeforeEach, signInAs } from "./support/request";
import { portalSandboxForFile } from "./support/sandbox";

const sandbox = portalSandboxForFile();

signedOutBeforeEach("/settings");

const credentialOf = (userId: string) => prisma.apiCredential.findUnique({ where: { userId } });
/** Nothing the person typed as a key or secret comes back in an answer. */
const expectNoSecrets = (answer: unknown, ...secrets: string[]) => {
  for (const secret of secrets) expect(JSON.stringify(answer)).not.toContain(secret);
};

describe("saveCredentialsAction", () => {
  it("sends a signed-out caller to sign-in and stores nothing", async () => {
    const owner = await createTeam();
    await expectSignInRedirect(call(saveCredentialsAction, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS }), "/settings");
    expect(await credentialOf(owner.userId)).toBeNull();
  });

  it("answers bad input with precise field errors, never echoing the secret, and stores nothing", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const answer = await call(saveCredentialsAction, { baseUrl: "http://ems.example.com", consumerKey: " ", consumerSecret: OTHER_CREDENTIALS.consumerSecret });
    expect(answer).toEqual({
      status: "error",
      fieldErrors: { baseUrl: "The base URL must use HTTPS (plain http:// works only for this portal's built-in sandbox).", consumerKey: "Enter the consumer key." },
    });
    expect(await call(saveCredentialsAction, { baseUrl: "https://api.example.com", consumerKey: "key" })).toEqual({
      status: "error",
      fieldErrors: { consumerSecret: expect.any(String) },
    });
    expectNoSecrets(answer, OTHER_CREDENTIALS.consumerSecret);
    expect(await credentialOf(owner.userId)).toBeNull();
  });

  it("asks the EMS first, then saves the caller's own credentials as verified, encrypted, answering with the key's last four characters only", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const answer = await call(saveCredentialsAction, { baseUrl: `${sandbox.baseUrl}/`, ...OTHER_CREDENTIALS });
    expect(answer).toEqual({
      status: "success",
      message: expect.stringMatching(/^Connected and saved \(key ending in _key\)\. The account sees \d+ webhook groups?\.$/),
      // The form then offers the one next step, "Open your webhooks".
      data: { connected: true },
    });
    expectNoSecrets(answer, OTHER_CREDENTIALS.consumerSecret, OTHER_CREDENTIALS.consumerKey);
    const row = await credentialOf(owner.userId);
    expect(row).toMatchObject({ baseUrl: sandbox.baseUrl, keyLast4: "_key", lastVerifiedAt: expect.any(Date), lastError: null });
    expectNoSecrets(row, OTHER_CREDENTIALS.consumerSecret, OTHER_CREDENTIALS.consumerKey);
    expect(revalidatePath).toHaveBeenCalledWith("/settings");
  });

  it("refuses credentials the EMS rejects, with the reason, and stores nothing (no token state either)", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const wrong = { consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: "a wrong secret" };
    const answer = await call(saveCredentialsAction, { baseUrl: sandbox.baseUrl, ...wrong });
    expect(answer).toEqual({ status: "error", message: "The EMS API rejected this consumer key and secret, so they were not saved. Check both and try again." });
    expectNoSecrets(answer, wrong.consumerSecret);
    expect(await credentialOf(owner.userId)).toBeNull();
    const fingerprint = credentialFingerprint(sandbox.baseUrl, wrong.consumerKey, wrong.consumerSecret);
    expect(await prisma.emsTokenCache.count({ where: { fingerprint } })).toBe(0);
    // Replacing saved credentials with rejected ones keeps the saved ones.
    await call(saveCredentialsAction, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const saved = await credentialOf(owner.userId);
    await call(saveCredentialsAction, { baseUrl: sandbox.baseUrl, ...wrong });
    expect((await credentialOf(owner.userId))?.fingerprint).toBe(saved?.fingerprint);
  });

  it("offers 'Save anyway' when the EMS does not answer the check; with it, saves unchecked", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    // Every attempt of the check's token request (a GET's retries included) answers 503.
    sandbox.sandbox.injectFaults({ count: 10, status: 503, paths: "all" });
    try {
      const answer = await call(saveCredentialsAction, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
      expect(answer).toEqual({
        status: "error",
        fieldErrors: {
          saveAnyway: expect.stringMatching(/answered with a server error \(503\): .*Nothing was saved yet: save them without the check, or try again\.$/),
        },
      });
      expect(await credentialOf(owner.userId)).toBeNull();

      const anyway = await call(saveCredentialsAction, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS, saveAnyway: "1" });
      expect(anyway).toEqual({
        status: "success",
        message: `Saved without a check (key ending in ${DEMO_CREDENTIALS.consumerKey.slice(-4)}). Use “Test connection” once the API answers.`,
      });
      expect(await credentialOf(owner.userId)).toMatchObject({ lastVerifiedAt: null });
    } finally {
      sandbox.sandbox.clearFaults();
    }
    // Only "1" means it.
    expect(await call(saveCredentialsAction, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS, saveAnyway: "yes" })).toMatchObject({
      status: "error",
      fieldErrors: { saveAnyway: expect.any(String) },
    });
  });
});

describe("saveCredentialsAction: where the portal may connect", () => {
  it("answers a private or plain-HTTP base URL on the Base URL field, and stores nothing", async () => {
    const owner = await createTeam();
    await signInAs(owner);
    const otherPortOnLoopback = `http://127.0.0.1:${Number(sandbox.host.split(":")[1]) + 1}/internal-admin`;
    expect(await call(saveCredentialsAction, { baseUrl: otherPortOnLoopback, ...DEMO_CREDENTIALS })).toEqual({
      status: "error",
      fieldErrors: { baseUrl: "The base URL must use HTTPS (plain http:// works only for this portal's built-in sandbox)." },
    });
    // This portal's own origin, outside /sandbox.
    expect(await call(saveCredentialsAction, { baseUrl: `http://${sandbox.host}/internal-admin`, ...DEMO_CREDENTIALS })).toEqual({
      status: "error",
      fieldErrors: { baseUrl: "On this portal's own address only the built-in sandbox can be used: its base URL ends in /sandbox." },
    });
    for (const baseUrl of ["https://169.254.169.254", "https://[::ffff:127.0.0.1]:8443", "https://0x7f000001", "https://metadata.google.internal"]) {
      const answer = await call(saveCredentialsAction, { baseUrl, ...DEMO_CREDENTIALS });
      expect(answer, baseUrl).toMatchObject({ status: "error", fieldErrors: { baseUrl: expect.stringMatching(/^That address is on a private network/) } });
    }
    expect(await credentialOf(owner.userId)).toBeNull();
  });
});

describe("deleteCredentialsAction", () => {
  it("sends a signed-out caller to sign-in and deletes nothing", async () => {
    const owner = await createTeam();
    const saved = await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await expectSignInRedirect(call(deleteCredentialsAction, { credentialId: saved.id }), "/settings");
    expect(await credentialOf(owner.userId)).not.toBeNull();
  });

  it("refuses another member's credentials, whatever the caller's role", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const ownersCredential = await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    const membersCredential = await saveCredential(member, { baseUrl: sandbox.baseUrl, ...OTHER_CREDENTIALS });
    await signInAs(member);
    expect(await call(deleteCredentialsAction, { credentialId: ownersCredential.id })).toEqual({
      status: "error",
      message: "Those credentials do not exist, or they are not yours.",
    });
    await signInAs(owner);
    expect(await call(deleteCredentialsAction, { credentialId: membersCredential.id })).toEqual({
      status: "error",
      message: "Those credentials do not exist, or they are not yours.",
    });
    expect(await credentialOf(owner.userId)).not.toBeNull();
    expect(await credentialOf(member.userId)).not.toBeNull();
  });

  it("answers bad input with a field error and deletes nothing", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await signInAs(owner);
    expect(await call(deleteCredentialsAction, { credentialId: "   " })).toEqual({ status: "error", fieldErrors: { credentialId: "Which credentials?" } });
    expect(await credentialOf(owner.userId)).not.toBeNull();
  });

  it("deletes the caller's own credentials", async () => {
    const owner = await createTeam();
    const saved = await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await signInAs(owner);
    expect(await call(deleteCredentialsAction, { credentialId: saved.id })).toEqual({ status: "success", message: "Your API credentials were deleted." });
    expect(await credentialOf(owner.userId)).toBeNull();
    expect(revalidatePath).toHaveBeenCalledWith("/settings");
  });
});

describe("testConnectionAction", () => {
  it("sends a signed-out caller to sign-in", async () => {
    await expectSignInRedirect(call(testConnectionAction), "/settings");
  });

  it("tests only the caller's own credentials: a crafted id of someone else's is ignored", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const ownersCredential = await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await signInAs(member);
    expect(await call(testConnectionAction, { credentialId: ownersCredential.id })).toEqual({
      status: "error",
      message: "You have not saved any API credentials yet. Add them in Settings.",
    });
    expect((await credentialOf(owner.userId))!.lastVerifiedAt).toBeNull();
  });

  it("records a rejected secret as the credential's error and says so", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: "not the secret" });
    await signInAs(owner);
    const message = "The EMS API rejected your API credentials. Check the consumer key and secret in Settings.";
    expect(await call(testConnectionAction)).toEqual({ status: "error", message });
    expect(await credentialOf(owner.userId)).toMatchObject({ lastError: message, lastVerifiedAt: null });
  });

  it("gets a token, counts the webhook groups and records the success", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await signInAs(owner);
    const answer = await call(testConnectionAction);
    expect(answer).toMatchObject({
      status: "success",
      message: expect.stringMatching(/^Connected\. The account sees \d+ webhook groups?\.$/),
      data: { webhookGroupCount: expect.any(Number), expiresAt: expect.stringMatching(/^\d{4}-/) },
    });
    expectNoSecrets(answer, DEMO_CREDENTIALS.consumerSecret, DEMO_CREDENTIALS.consumerKey, "ems1.");
    expect((await credentialOf(owner.userId))!.lastVerifiedAt).not.toBeNull();
    expect(revalidatePath).toHaveBeenCalledWith("/settings");
  });
});

describe("applySandboxCredentialsAction", () => {
  it("sends a signed-out caller to sign-in and stores nothing", async () => {
    const owner = await createTeam();
    await expectSignInRedirect(call(applySandboxCredentialsAction, { account: "demo" }), "/settings");
    expect(await credentialOf(owner.userId)).toBeNull();
  });

  it("answers an unknown account with the form's message and stores nothing", async () => {
    const owner = await createTeam();
    await signInAs(owner, { path: "/settings", headers: { host: sandbox.host } });
    expect(await call(applySandboxCredentialsAction, { account: "admin" })).toEqual({
      status: "error",
      message: "Choose a sandbox account.",
      fieldErrors: { account: "Choose a sandbox account." },
    });
    expect(await credentialOf(owner.userId)).toBeNull();
  });

  it("refuses a sandbox URL built from a Host that is not this portal's own, and stores nothing", async () => {
    const owner = await createTeam();
    // A crafted Host header: another service on loopback, or the metadata address.
    for (const host of [`127.0.0.1:${Number(sandbox.host.split(":")[1]) + 1}`, "169.254.169.254"]) {
      await signInAs(owner, { path: "/settings", headers: { host } });
      expect(await call(applySandboxCredentialsAction, { account: "demo" })).toEqual({
        status: "error",
        message: "The built-in sandbox can only be used through this portal's own address. Open the portal at the address it is configured with and try again.",
      });
    }
    expect(await credentialOf(owner.userId)).toBeNull();
  });

  it("saves the sandbox account at this portal's /sandbox and tests it, without sending the demo secret back", async () => {
    const owner = await createTeam();
    await signInAs(owner, { path: "/settings", headers: { host: sandbox.host } });
    const answer = await call(applySandboxCredentialsAction, { account: "other" });
    expect(answer).toEqual({ status: "success", message: expect.stringMatching(/^Sandbox credentials saved and tested: the account sees \d+ webhook groups\.$/) });
    expectNoSecrets(answer, OTHER_CREDENTIALS.consumerSecret, OTHER_CREDENTIALS.consumerKey);
    const row = await credentialOf(owner.userId);
    expect(row).toMatchObject({ baseUrl: sandbox.baseUrl, keyLast4: "_key" });
    expect(row!.lastVerifiedAt).not.toBeNull();
  });
});
