import "server-only";
import { hash, verify } from "@node-rs/argon2";
export { MAX_PASSWORD_LENGTH } from "./password-policy";

// argon2id (the library's default algorithm) with OWASP's second recommended profile.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against this when the email is unknown keeps the response time of "no such account"
// the same as "wrong password", so timing does not reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("not-a-real-password-only-for-timing");
  return dummyHash;
}
