import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { isSafeError } from "@/lib/errors";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { allowPrivateOrigin } from "@/tests/ems/support/env";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { deleteCredential, getCredentialSummary, saveCredential, testCredential } from "@/lib/credentials/store";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { getTeamOverview } from "@/lib/teams/members";
import { addMember, createTeam } from "../teams/fixtures";

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startAllowedSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(isSafeError(error)).toBe(true);
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error("expected a refusal, but it succeeded");
}

const demo = () => ({ baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: DEMO_CREDENTIALS.consumerSecret });

describe("API credentials", () => {
  it("stores key and secret encrypted, bound to the user, and shows only the key's last four", async () => {
    const owner = await createTeam();
    const summary = await saveCredential(owner, { baseUrl: "https://ems.example.com/", consumerKey: " key-abcdWXYZ ", consumerSecret: "s3cret pass+/=:%&é" });
    expect(summary).toMatchObject({ baseUrl: "https://ems.example.com", keyLast4: "WXYZ", lastVerifiedAt: null, readable: true });
    const row = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: owner.userId } });
    expect(row.keyCiphertext).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(JSON.stringify(row)).not.toMatch(/key-abcdWXYZ|s3cret pass/);
    expect(JSON.stringify(await getCredentialSummary(owner))).not.toMatch(/key-abcdWXYZ|s3cret|v1:/);
    const audit = await prisma.auditLog.findMany({ where: { teamId: owner.teamId } });
    expect(audit.map((a) => a.action)).toContain("credential.saved");
    expect(JSON.stringify(audit)).not.toMatch(/key-abcdWXYZ|s3cret/);
  });

  it("requires HTTPS, except for this portal's own sandbox and the private origins the operator lists", async () => {
    const owner = await createTeam();
    expect((await refusal(saveCredential(owner, { baseUrl: "http://ems.example.com", consumerKey: "k", consumerSecret: "s" }))).code).toBe("invalid_base_url");
    expect((await refusal(saveCredential(owner, { baseUrl: "ftp://ems.example.com", consumerKey: "k", consumerSecret: "s" }))).code).toBe("invalid_base_url");
    expect((await refusal(saveCredential(owner, { baseUrl: "http://127.0.0.1:4010", consumerKey: "k", consumerSecret: "s" }))).code).toBe("invalid_base_url");
    expect(await prisma.apiCredential.count({ where: { userId: owner.userId } })).toBe(0);
    // The sandbox is on under tests, and PORT defaults to 3000: this portal's own /sandbox.
    await expect(saveCredential(owner, { baseUrl: "http://localhost:3000/sandbox", consumerKey: "k", consumerSecret: "s" })).resolves.toBeTruthy();
    const withdraw = allowPrivateOrigin("http://127.0.0.1:4010");
    try {
      await expect(saveCredential(owner, { baseUrl: "http://127.0.0.1:4010", consumerKey: "k", consumerSecret: "s" })).resolves.toBeTruthy();
    } finally {
      withdraw();
    }
  });

  it("tests the connection against the sandbox: token expiry and webhook group count, recorded as verified", async () => {
    const owner = await createTeam();
    await saveCredential(owner, demo());
    const result = await testCredential(owner);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.webhookGroupCount).toBeGreaterThan(0);
    expect(result.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const summary = await getCredentialSummary(owner);
    expect(summary?.lastVerifiedAt).not.toBeNull();
    expect(summary?.lastError).toBeNull();
    const client = await getEmsClientForActor(owner);
    expect(client).not.toBeNull();
  });

  it("says in words when the key or secret is wrong, and when the host cannot be reached", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { ...demo(), consumerSecret: "wrong secret" });
    const wrong = await testCredential(owner);
    expect(wrong).toMatchObject({ ok: false });
    if (wrong.ok) return;
    expect(wrong.message).toMatch(/rejected your API credentials/);
    expect((await getCredentialSummary(owner))?.lastError).toBe(wrong.message);

    // Port 9 (discard) on loopback, listed as a private origin: nothing answers there.
    const withdraw = allowPrivateOrigin("http://127.0.0.1:9");
    try {
      await saveCredential(owner, { baseUrl: "http://127.0.0.1:9", consumerKey: "k", consumerSecret: "s" });
      const unreachable = await testCredential(owner);
      expect(unreachable.ok).toBe(false);
      if (!unreachable.ok) expect(unreachable.message).toMatch(/refused the connection|did not answer|unavailable/);
    } finally {
      withdraw();
    }
  });

  it("keeps each member to their own credentials: another's account is never used, and a crafted id deletes nothing", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await saveCredential(owner, demo());
    await saveCredential(member, { baseUrl: sandbox.baseUrl, consumerKey: OTHER_CREDENTIALS.consumerKey, consumerSecret: OTHER_CREDENTIALS.consumerSecret });
    const ownersRow = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: owner.userId } });

    expect((await refusal(deleteCredential(member, { credentialId: ownersRow.id }))).code).toBe("not_found");
    expect(await prisma.apiCredential.findUnique({ where: { id: ownersRow.id } })).not.toBeNull();
    expect((await getCredentialSummary(member))?.keyLast4).toBe(OTHER_CREDENTIALS.consumerKey.slice(-4));

    const ownerCount = ((await testCredential(owner)) as { webhookGroupCount: number }).webhookGroupCount;
    const memberCount = ((await testCredential(member)) as { webhookGroupCount: number }).webhookGroupCount;
    expect(ownerCount).not.toBe(memberCount);

    const memberFingerprint = (await prisma.apiCredential.findUniqueOrThrow({ where: { userId: member.userId } })).fingerprint;
    expect(await prisma.emsTokenCache.findUnique({ where: { fingerprint: memberFingerprint } })).not.toBeNull();
    await deleteCredential(member, { credentialId: (await getCredentialSummary(member))!.id });
    expect(await getCredentialSummary(member)).toBeNull();
    // Nobody else uses those credentials: their cached token goes with them.
    expect(await prisma.emsTokenCache.findUnique({ where: { fingerprint: memberFingerprint } })).toBeNull();
    expect(await getEmsClientForActor(member)).toBeNull();
    expect((await refusal(testCredential(member))).code).toBe("no_credential");
    expect(await prisma.auditLog.count({ where: { teamId: owner.teamId, action: "credential.deleted", actorId: member.userId } })).toBe(1);
  });

  it("an admin reads no secret of anyone: not in the team overview, not through the credential functions", async () => {
    const owner = await createTeam();
    const admin = await addMember(owner, "ADMIN");
    await saveCredential(owner, { baseUrl: "https://ems.example.com", consumerKey: "owner-only-key", consumerSecret: "owner-only-secret" });
    expect(await getCredentialSummary(admin)).toBeNull();
    expect(await getEmsClientForActor(admin)).toBeNull();
    expect(JSON.stringify(await getTeamOverview(admin))).not.toMatch(/owner-only|v1:/);
  });

  it("a ciphertext copied to another user's row does not decrypt: a clear error, never the other's secret", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await saveCredential(owner, demo());
    await saveCredential(member, { baseUrl: sandbox.baseUrl, consumerKey: "member-key", consumerSecret: "member-secret" });
    const source = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: owner.userId } });
    await prisma.apiCredential.update({
      where: { userId: member.userId },
      data: { keyCiphertext: source.keyCiphertext, secretCiphertext: source.secretCiphertext, fingerprint: source.fingerprint },
    });
    const error = await refusal(getEmsClientForActor(member));
    expect(error.code).toBe("credential_unreadable");
    expect(error.message).toMatch(/enter your consumer key and secret again/i);
    expect((await refusal(testCredential(member))).code).toBe("credential_unreadable");
  });

  it("a credential written under a key no longer in the ring is a clear error for that credential", async () => {
    const owner = await createTeam();
    await saveCredential(owner, demo());
    const ring = process.env.CREDENTIAL_ENCRYPTION_KEYS;
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `other:${randomBytes(32).toString("base64")}`;
    try {
      expect((await refusal(getEmsClientForActor(owner))).code).toBe("credential_unreadable");
      // The summary needs no decryption: the settings page still renders.
      expect(await getCredentialSummary(owner)).toMatchObject({ readable: false });
    } finally {
      process.env.CREDENTIAL_ENCRYPTION_KEYS = ring;
    }
  });

  it("keeps the cached token of credentials a teammate still uses", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    await saveCredential(owner, demo());
    await saveCredential(member, demo());
    expect((await testCredential(owner)).ok).toBe(true);
    const { fingerprint } = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: owner.userId } });
    await deleteCredential(member, { credentialId: (await getCredentialSummary(member))!.id });
    expect((await prisma.emsTokenCache.findUniqueOrThrow({ where: { fingerprint } })).tokenCiphertext).not.toBeNull();
    expect((await testCredential(owner)).ok).toBe(true);
  });
});
