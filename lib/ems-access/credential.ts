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

/** A stored credential as its row holds it: encrypted. */
export interface StoredCredentialRow {
  id: string;
  baseUrl: string;
  keyCiphertext: string;
  secretCiphertext: string;
  fingerprint: string;
}

/**
 * The credential row the session's statement already read (lib/auth/session.ts joins it), by the
 * actor object of that request: a page view then reads the credential without a round trip of its
 * own (issue 38). Weak, so it lives exactly as long as the request's actor; `null` means the
 * statement found no credential. Saving or deleting a credential forgets it (lib/credentials/store.ts),
 * so a render after the change in the same request reads the new row.
 */
const rowsReadWithSession = new WeakMap<Pick<Actor, "userId">, StoredCredentialRow | null>();

export function rememberCredentialReadWithSession(actor: Pick<Actor, "userId">, row: StoredCredentialRow | null): void {
  rowsReadWithSession.set(actor, row);
}

export function forgetCredentialReadWithSession(actor: Pick<Actor, "userId">): void {
  rowsReadWithSession.delete(actor);
}

function decryptedCredential(userId: string, row: StoredCredentialRow): EmsCredential & { id: string } {
  try {
    return {
      id: row.id,
      fingerprint: row.fingerprint,
      baseUrl: row.baseUrl,
      consumerKey: decryptSecret(row.keyCiphertext, credentialAad(userId, "key")),
      consumerSecret: decryptSecret(row.secretCiphertext, credentialAad(userId, "secret")),
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
 * A person's own credential, decrypted, for the EMS client only (and, for change history, to tell
 * which account it reads: lib/ems-access/account-key.ts). Null when none is saved; a ciphertext that no
 * longer decrypts is a clear SafeError for this credential, never garbage.
 */
export async function loadOwnCredential(actor: Pick<Actor, "userId">): Promise<(EmsCredential & { id: string }) | null> {
  const row = await prisma.apiCredential.findUnique({
    where: { userId: actor.userId },
    select: { id: true, baseUrl: true, keyCiphertext: true, secretCiphertext: true, fingerprint: true },
  });
  return row ? decryptedCredential(actor.userId, row) : null;
}

/**
 * An EMS client for the actor's own credentials (the listing pages use it), or null when they have
 * saved none. Throws CredentialUnreadableError (a SafeError) when the stored ciphertext cannot be read.
 */
export async function getEmsClientForActor(actor: Pick<Actor, "userId">): Promise<EmsClient | null> {
  // The row the session's statement read for this request, when it did: no round trip of its own.
  const readWithSession = rowsReadWithSession.get(actor);
  const credential = readWithSession === undefined ? await loadOwnCredential(actor) : readWithSession && decryptedCredential(actor.userId, readWithSession);
  if (!credential) return null;
  const { id: _id, ...emsCredential } = credential;
  void _id;
  return getEmsClient(emsCredential);
}
