// Fixtures for the history access rule (lib/history/access.ts): a credential saved for a person,
// written as saveCredential writes it but without its DNS check (the tests' hosts do not resolve),
// and a tracker of an account with a change in it.
import { encryptSecret } from "@/lib/crypto";
import { credentialAad } from "@/lib/ems-access/credential-aad";
import { prisma } from "@/lib/db/prisma";
import { credentialFingerprint } from "@/lib/ems";
import { accountKey, accountLabel } from "@/lib/ems-access/account-key";
import type { Actor } from "@/lib/access/actor";
import { unique } from "@/tests/teams/fixtures";

export interface Account {
  baseUrl: string;
  consumerKey: string;
}

/** A made-up EMS account of its own (a base URL and a consumer key no other test uses). */
export function newAccount(): Account {
  return { baseUrl: `https://ems-${unique()}.example.test`, consumerKey: `key-${unique()}` };
}

/** Saves `account` as the person's own credential (any secret: the account is URL + key). */
export async function giveCredential(person: Pick<Actor, "userId">, account: Account, consumerSecret = `secret-${unique()}`): Promise<void> {
  const data = {
    baseUrl: account.baseUrl,
    keyCiphertext: encryptSecret(account.consumerKey, credentialAad(person.userId, "key")),
    secretCiphertext: encryptSecret(consumerSecret, credentialAad(person.userId, "secret")),
    keyLast4: account.consumerKey.slice(-4),
    fingerprint: credentialFingerprint(account.baseUrl, account.consumerKey, consumerSecret),
  };
  await prisma.apiCredential.upsert({ where: { userId: person.userId }, create: { userId: person.userId, ...data }, update: data });
}

/** A tracker of `account` for the owner's team, with one sync that saw one change to group `groupId`. */
export async function trackedAccount(owner: Actor, account: Account, groupId = 7): Promise<{ trackerId: string; accountLabel: string; groupId: number }> {
  const label = accountLabel(account.baseUrl, account.consumerKey);
  const tracker = await prisma.changeTracker.create({
    data: { teamId: owner.teamId, accountKey: accountKey(account.baseUrl, account.consumerKey), accountLabel: label, runnerId: owner.userId, createdById: owner.userId },
    select: { id: true },
  });
  const sync = await prisma.setupSync.create({ data: { trackerId: tracker.id, trigger: "manual", status: "ok", changeCount: 1 }, select: { id: true } });
  await prisma.setupChange.create({
    data: {
      trackerId: tracker.id,
      teamId: owner.teamId,
      syncId: sync.id,
      kind: "group",
      recordId: groupId,
      groupId,
      recordName: `Orders ${label}`,
      groupName: `Orders ${label}`,
      change: "changed",
      field: "name",
      before: "Old orders",
      after: `Orders ${label}`,
      seenAt: new Date(),
    },
  });
  return { trackerId: tracker.id, accountLabel: label, groupId };
}
