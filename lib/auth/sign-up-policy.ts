import "server-only";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { signUpEnv, type SignUpMode } from "@/lib/env";

/**
 * Who may create an account without an invitation link (SIGNUP_MODE). Invitation links work in
 * every mode: they are made by a team's owners and admins, used once, and place the person in
 * that team.
 *
 * - `open`: anyone; they start a team of their own and own it.
 * - `invite-only` (the default): nobody, except the very first sign-up on a portal that has no
 *   team yet, which starts the first team (so a fresh install can be used at all).
 * - `domain:example.com,…`: addresses at those domains (exactly; not their subdomains) join the
 *   portal's oldest team as members; on a portal without a team, the first of them starts it.
 *
 * The rule is applied twice: on the page and before any work (a quick refusal, the same for every
 * address, so it tells nothing about which addresses have accounts), and again inside the sign-up
 * transaction under a lock, where "is there a team yet?" is decided for good (two first sign-ups at
 * once: one starts the team, the other is refused).
 */

export function signUpMode(): SignUpMode {
  return signUpEnv().SIGNUP_MODE;
}

export type Placement = { kind: "own-team" } | { kind: "join-team"; teamId: string };

export type PolicyDecision = { allowed: true; placement: Placement } | { allowed: false; message: string; code: string };

export const INVITE_ONLY_MESSAGE = "This portal creates accounts from invitation links only. Ask an owner or admin of your team to invite you.";

export function domainOnlyMessage(domains: string[]): string {
  return `Without an invitation, only addresses at ${listOf(domains)} can sign up here. Ask an owner or admin of your team to invite you.`;
}

/** The decision for a sign-up without an invitation, given the portal's oldest team (or none). */
export function decideWithoutInvitation(mode: SignUpMode, oldestTeamId: string | null, email: string): PolicyDecision {
  switch (mode.kind) {
    case "open":
      return { allowed: true, placement: { kind: "own-team" } };
    case "invite-only":
      return oldestTeamId ? { allowed: false, message: INVITE_ONLY_MESSAGE, code: "invite_only" } : { allowed: true, placement: { kind: "own-team" } };
    case "domain": {
      const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
      if (!mode.domains.includes(domain)) return { allowed: false, message: domainOnlyMessage(mode.domains), code: "domain_not_allowed" };
      return oldestTeamId ? { allowed: true, placement: { kind: "join-team", teamId: oldestTeamId } } : { allowed: true, placement: { kind: "own-team" } };
    }
  }
}

/** The portal's oldest team (the one `domain:` sign-ups join), or null on an empty portal. */
export async function oldestTeamId(db: TransactionClient | typeof prisma = prisma): Promise<string | null> {
  const team = await db.team.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  return team?.id ?? null;
}

/**
 * Inside the sign-up transaction: serialises sign-ups whose outcome depends on whether a team
 * exists yet (a transaction-scoped advisory lock, released at commit), then looks.
 */
export async function lockAndFindOldestTeam(tx: TransactionClient): Promise<string | null> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('sign-up:first-team', 0))`;
  return oldestTeamId(tx);
}

/** Whether the mode's answer depends on the portal having a team (so the sign-up takes the lock). */
export function dependsOnFirstTeam(mode: SignUpMode): boolean {
  return mode.kind !== "open";
}

export interface SignUpPageText {
  /** What the page says, under its heading. */
  text: string;
  /** Whether the form is any use to a visitor without an invitation. */
  formShown: boolean;
}

/** What the sign-up page tells a visitor without an invitation. */
export async function signUpPageText(): Promise<SignUpPageText> {
  const mode = signUpMode();
  if (mode.kind === "open") return { text: "You will start a team of your own and can invite others.", formShown: true };
  const hasTeam = (await oldestTeamId()) !== null;
  if (mode.kind === "invite-only") {
    return hasTeam
      ? { text: INVITE_ONLY_MESSAGE, formShown: false }
      : {
          text: "You are the first person on this portal: your account starts its first team, and you will be its owner. After you, accounts are created from invitation links.",
          formShown: true,
        };
  }
  const domains = listOf(mode.domains);
  return hasTeam
    ? {
        text: `Addresses at ${domains} can create an account here and join the portal's team as members. Anyone else needs an invitation link from an owner or admin.`,
        formShown: true,
      }
    : {
        text: `Addresses at ${domains} can create an account here. You are the first: your account starts the portal's team, and you will be its owner.`,
        formShown: true,
      };
}

function listOf(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}
