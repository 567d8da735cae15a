import "server-only";
import { secretAad } from "@/lib/crypto";

/**
 * Associated data of a person's TOTP secret (`TwoFactor:<userId>:secret`): the ciphertext opens only
 * on its own row, so one copied onto another person's row does not decrypt. Shared by
 * lib/auth/two-factor.ts and key rotation (lib/rotation/credentials.ts).
 */
export function twoFactorAad(userId: string): string {
  return secretAad("TwoFactor", userId, "secret");
}
