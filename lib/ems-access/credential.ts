import "server-only";
import type { Actor } from "@/lib/access/actor";
import { DecryptionError, decryptSecret } from "@/lib/crypto";
import { prisma } from "@/lib/db/prisma";
import { getEmsClient, type EmsClient, type EmsCredential } from "@/lib/ems";
import { SafeError } from "@/lib/errors";
import { log } from "@/lib/log";
import { credentialAad } from "./credential-aad";

/**
 * The signed-in person's own EMS credential, decrypted for the EMS client and nothing else, and the
 * client made from it: how every feature reads the EMS as that person. Saving, testing and deleting
 * credentials are the credentials feature's (lib/credentials/store.ts).
 */

export class CredentialUnreadableError extends SafeError {
  constructor() {
    super(
      "Your saved API credentials can no longer be read: the server's encryption key has changed. Enter your consumer key and secret again in Settings.",
      "credential_unreadable",
    );
  }
}

export class NoCredentialError extends SafeError {
  constructor() {
    super("You have not saved any API credentials yet. Add them in Settings.", "no_credential");
  }
}

/**
 * A person's own credential, decrypted, for the EMS client only (and, for change history, to tell
 * which account it reads: lib/ems-access/account-key.ts). Null when none is saved; a ciphertext that no
 * longer decrypts is a clear SafeError for this credential, never garbage.
 */
export async function loadOwnCredential(actor: Pick<Actor, "userId">): Promise<(EmsCredential & { id: string }) | null> {
  const row = await prisma.apiCredential.findUnique({
    where: { userId: actor.userId },
    select: { id: true, baseUrl: true, keyCiphertext: true, secretCiphertext: true, fingerprint: true },
  });
  if (!row) return null;
  try {
    return {
      id: row.id,
      fingerprint: row.fingerprint,
      baseUrl: row.baseUrl,
      consumerKey: decryptSecret(row.keyCiphertext, credentialAad(actor.userId, "key")),
      consumerSecret: decryptSecret(row.secretCiphertext, credentialAad(actor.userId, "secret")),
    };
  } catch (error) {
    if (error instanceof DecryptionError) {
      log.error({ event: "credential.undecryptable", credentialId: row.id, reason: error.message }, "stored credential does not decrypt");
      throw new CredentialUnreadableError();
    }
    throw error;
  }
}

/**
 * An EMS client for the actor's own credentials (the listing pages use it), or null when they have
 * saved none. Throws CredentialUnreadableError (a SafeError) when the stored ciphertext cannot be read.
 */
export async function getEmsClientForActor(actor: Pick<Actor, "userId">): Promise<EmsClient | null> {
  const credential = await loadOwnCredential(actor);
  if (!credential) return null;
  const { id: _id, ...emsCredential } = credential;
  void _id;
  return getEmsClient(emsCredential);
}
