import "server-only";
import { secretAad } from "@/lib/crypto";

/**
 * Associated data for the two ciphertexts of a member's credential: bound to the user and the field,
 * so a ciphertext copied to another user's row (or from key to secret) does not decrypt.
 * `ApiCredential:<userId>:key` and `ApiCredential:<userId>:secret`.
 */
export function credentialAad(userId: string, field: "key" | "secret"): string {
  return secretAad("ApiCredential", userId, field);
}
