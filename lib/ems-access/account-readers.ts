import "server-only";
import { cache } from "react";
import { canManageTeam, type TeamRole } from "@/lib/access/roles";
import { accountKey } from "./account-key";
import { CredentialUnreadableError, loadOwnCredential } from "./credential";

/**
 * Who reads an EMS account through the portal: the account a person's own saved credential reads,
 * and whether a member of a team may read what the team keeps of an account (its change history and
 * its alerts: lib/history/access.ts has the rule in full, docs/SECURITY.md why).
 */

/**
 * The account key of the credential `userId` has saved now, or null (none, or one that no longer
 * decrypts: it reads no account). Once per request.
 */
export const ownAccountKey = cache(async (userId: string): Promise<string | null> => {
  const credential = await loadOwnCredential({ userId }).catch((error: unknown) => {
    // A credential under a retired key reads no account; any other failure is not an answer.
    if (error instanceof CredentialUnreadableError) return null;
    throw error;
  });
  return credential ? accountKey(credential.baseUrl, credential.consumerKey) : null;
});

/**
 * May this member read the history of the account `trackerAccountKey` names? For one person of the
 * tracker's team whose role is known (the alert recipients: lib/alerts/deliveries.ts).
 */
export async function memberMayReadHistory(member: { userId: string; role: TeamRole }, trackerAccountKey: string): Promise<boolean> {
  if (canManageTeam(member.role)) return true;
  return (await ownAccountKey(member.userId)) === trackerAccountKey;
}
