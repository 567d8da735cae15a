import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ciphertextKeyId, decryptSecret, encryptSecret } from "@/lib/crypto";
import { prisma } from "@/lib/db/prisma";
import { credentialAad } from "@/lib/ems-access/credential-aad";
import { rotateStoredSecrets } from "@/lib/rotation/credentials";
import { tokenCacheAad } from "@/lib/ems";
import { getEmsClientForActor } from "@/lib/ems-access/credential";
import { saveCredential, testCredential } from "@/lib/credentials/store";
import { DEMO_CREDENTIALS, type StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { addMember, createTeam } from "@/tests/teams/fixtures";
import { withOwnDatabase } from "@/tests/setup/db";

// Rotation rewrites every stored secret of the database: on the shared one it would re-encrypt the
// rows of files running beside this one under a key their processes do not hold.
withOwnDatabase();

let sandbox: StartedSandbox;
let originalRing: string | undefined;
beforeAll(async () => {
  sandbox = await startAllowedSandbox();
  originalRing = process.env.CREDENTIAL_ENCRYPTION_KEYS;
});
afterAll(async () => {
  process.env.CREDENTIAL_ENCRYPTION_KEYS = originalRing;
  await sandbox?.close();
});

const newKid = () => `r${randomBytes(4).toString("hex")}`;

describe("npm run keys:rotate (rotateStoredSecrets)", () => {
  it("re-encrypts every credential and cached token under the active key, survives an interruption, and then has nothing left to do", async () => {
    const oldKid = ciphertextKeyId(encryptSecret("probe", "probe"))!;
    const owner = await createTeam();
    const members = [owner, await addMember(owner, "MEMBER"), await addMember(owner, "ADMIN")];
    for (const [index, actor] of members.entries()) {
      await saveCredential(actor, {
        baseUrl: sandbox.baseUrl,
        consumerKey: index === 0 ? DEMO_CREDENTIALS.consumerKey : `key-${index}`,
        consumerSecret: index === 0 ? DEMO_CREDENTIALS.consumerSecret : `secret-${index}`,
      });
    }
    expect((await testCredential(owner)).ok).toBe(true);
    const ownerRow = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: owner.userId } });
    const tokenRow = await prisma.emsTokenCache.findUniqueOrThrow({ where: { fingerprint: ownerRow.fingerprint } });
    expect(tokenRow.tokenCiphertext && ciphertextKeyId(tokenRow.tokenCiphertext)).toBe(oldKid);
    const tokenBefore = decryptSecret(tokenRow.tokenCiphertext!, tokenCacheAad(ownerRow.fingerprint));

    const kid = newKid();
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `${kid}:${randomBytes(32).toString("base64")},${originalRing}`;

    // Interrupted after the first batch (a crash, Ctrl-C): what was written stays readable.
    await expect(
      rotateStoredSecrets(prisma, {
        batchSize: 1,
        onBatch: () => {
          throw new Error("interrupted");
        },
      }),
    ).rejects.toThrow("interrupted");
    // At most the one row of the first batch was rewritten, and every row still decrypts.
    expect(await prisma.apiCredential.count({ where: { keyCiphertext: { startsWith: `v1:${kid}:` } } })).toBeLessThanOrEqual(1);
    for (const actor of members) {
      const row = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: actor.userId } });
      expect(() => decryptSecret(row.secretCiphertext, credentialAad(actor.userId, "secret"))).not.toThrow();
    }

    const report = await rotateStoredSecrets(prisma, { batchSize: 2 });
    expect(report.activeKeyId).toBe(kid);
    for (const actor of members) {
      const row = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: actor.userId } });
      expect(ciphertextKeyId(row.keyCiphertext)).toBe(kid);
      expect(ciphertextKeyId(row.secretCiphertext)).toBe(kid);
    }
    expect(
      decryptSecret(
        (await prisma.apiCredential.findUniqueOrThrow({ where: { userId: members[1].userId } })).secretCiphertext,
        credentialAad(members[1].userId, "secret"),
      ),
    ).toBe("secret-1");
    const rotatedToken = await prisma.emsTokenCache.findUniqueOrThrow({ where: { fingerprint: ownerRow.fingerprint } });
    expect(ciphertextKeyId(rotatedToken.tokenCiphertext!)).toBe(kid);
    expect(decryptSecret(rotatedToken.tokenCiphertext!, tokenCacheAad(ownerRow.fingerprint))).toBe(tokenBefore);

    // Still usable after rotation, and with the old key gone from the ring.
    process.env.CREDENTIAL_ENCRYPTION_KEYS = process.env.CREDENTIAL_ENCRYPTION_KEYS.split(",")[0];
    await expect(getEmsClientForActor(owner)).resolves.not.toBeNull();
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `${kid}:${process.env.CREDENTIAL_ENCRYPTION_KEYS.split(":")[1]},${originalRing}`;

    const again = await rotateStoredSecrets(prisma, { batchSize: 2 });
    expect(again.credentials.reencrypted).toBe(0);
    expect(again.tokens.reencrypted).toBe(0);
  });

  it("leaves a credential that no key decrypts untouched and reports it; clears an unreadable cached token", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: "https://ems.example.com", consumerKey: "k", consumerSecret: "s" });
    const row = await prisma.apiCredential.findUniqueOrThrow({ where: { userId: owner.userId } });
    // Written under a key that is not in the ring (lost).
    const ring = process.env.CREDENTIAL_ENCRYPTION_KEYS;
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `lost:${randomBytes(32).toString("base64")}`;
    const lostKey = encryptSecret("k", credentialAad(owner.userId, "key"));
    const lostToken = encryptSecret("token-value", tokenCacheAad(row.fingerprint));
    process.env.CREDENTIAL_ENCRYPTION_KEYS = `${newKid()}:${randomBytes(32).toString("base64")},${ring}`;
    await prisma.apiCredential.update({ where: { id: row.id }, data: { keyCiphertext: lostKey } });
    await prisma.emsTokenCache.upsert({
      where: { fingerprint: row.fingerprint },
      create: { fingerprint: row.fingerprint, tokenCiphertext: lostToken, expiresAt: new Date(Date.now() + 60_000) },
      update: { tokenCiphertext: lostToken, expiresAt: new Date(Date.now() + 60_000) },
    });

    const report = await rotateStoredSecrets(prisma);
    expect(report.credentials.unreadable).toContain(row.id);
    expect((await prisma.apiCredential.findUniqueOrThrow({ where: { id: row.id } })).keyCiphertext).toBe(lostKey);
    expect(report.tokens.unreadable).toContain(row.fingerprint);
    expect((await prisma.emsTokenCache.findUniqueOrThrow({ where: { fingerprint: row.fingerprint } })).tokenCiphertext).toBeNull();
    process.env.CREDENTIAL_ENCRYPTION_KEYS = ring;
  });
});
