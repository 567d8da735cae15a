import "server-only";
import { createHash, randomBytes } from "node:crypto";

/** Invitation links carry 32 random bytes, base64url (43 characters); only their SHA-256 is stored. */
export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export function newInvitationToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function isWellFormedInvitationToken(token: string): boolean {
  return INVITATION_TOKEN_PATTERN.test(token);
}
