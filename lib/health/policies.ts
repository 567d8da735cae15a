import "server-only";
import type { Actor } from "@/lib/access/actor";
import { requireManager, type RequestContext } from "@/lib/access/guards";
import { auditByActor } from "@/lib/audit/log";
import { prisma } from "@/lib/db/prisma";
import { SafeError } from "@/lib/errors";
import { RULE_IDS, type RuleId } from "./types";

/**
 * What a team wants done with each Health check's findings (issue 37 §2):
 * - "off": the check is muted for the team (its findings are listed as muted, nothing alerts);
 * - "tell": what Health always did: the findings show, and a newly failing one alerts;
 * - "draft": as "tell", and after each sync the portal drafts one plan of the check's fix for its
 *   new findings (lib/plans/policy-fixes.ts), for a person to review. Only a check whose fix is
 *   mechanical (DRAFTABLE_CHECKS, held equal to lib/plans/fixes.ts at build time) may draft.
 * Owners and admins set it; every member sees it. No row is "tell".
 */

export const CHECK_POLICIES = ["off", "tell", "draft"] as const;
export type CheckPolicy = (typeof CHECK_POLICIES)[number];
export const DEFAULT_CHECK_POLICY: CheckPolicy = "tell";

/**
 * The checks with a mechanical fix: lib/plans/fixes.ts defines a fix for exactly these (checked both
 * ways by its types). Here, below plans, so Health's settings know which checks may draft.
 */
export const DRAFTABLE_CHECKS = [
  "plain-http-url",
  "group-without-notification-emails",
  "duplicate-url-trigger",
  "disabled-webhook-live-event",
  "webhook-ended-events-only",
] as const satisfies readonly RuleId[];
export type DraftableCheck = (typeof DRAFTABLE_CHECKS)[number];

export const isDraftable = (ruleId: string): ruleId is DraftableCheck => (DRAFTABLE_CHECKS as readonly string[]).includes(ruleId);

/** The reason a check turned off shows where mutes are listed. */
export const POLICY_OFF_REASON = "Turned off for the team in Settings (Health checks).";

/** The team's policy of every check (the default where none was chosen). */
export async function checkPolicies(actor: Pick<Actor, "teamId">): Promise<Record<RuleId, CheckPolicy>> {
  const rows = await prisma.healthCheckPolicy.findMany({ where: { teamId: actor.teamId }, select: { ruleId: true, policy: true } });
  const chosen = new Map(rows.map((row) => [row.ruleId, row.policy]));
  return Object.fromEntries(RULE_IDS.map((id) => [id, parsePolicy(chosen.get(id))])) as Record<RuleId, CheckPolicy>;
}

/** The checks of a team with a given policy (one indexed read: the sync asks for every team it syncs). */
export async function checksWithPolicy(
  teamId: string,
  policy: Exclude<CheckPolicy, "tell">,
): Promise<{ ruleId: RuleId; updatedByEmail: string | null; updatedAt: Date }[]> {
  const rows = await prisma.healthCheckPolicy.findMany({ where: { teamId, policy }, select: { ruleId: true, updatedByEmail: true, updatedAt: true } });
  return rows.filter((row): row is typeof row & { ruleId: RuleId } => (RULE_IDS as readonly string[]).includes(row.ruleId));
}

const parsePolicy = (value: string | undefined): CheckPolicy =>
  (CHECK_POLICIES as readonly string[]).includes(value ?? "") ? (value as CheckPolicy) : DEFAULT_CHECK_POLICY;

/** Owners and admins: sets one check's policy for the team; audited. "draft" only for a check with a fix. */
export async function setCheckPolicy(actor: Actor, input: { ruleId: RuleId; policy: CheckPolicy }, context: RequestContext = {}): Promise<void> {
  if (input.policy === "draft" && !isDraftable(input.ruleId)) {
    throw new SafeError("This check has no fix the portal can draft: choose “Tell us” or “Off”.", "check_not_draftable");
  }
  await prisma.$transaction(async (tx) => {
    await requireManager(tx, actor);
    const where = { teamId_ruleId: { teamId: actor.teamId, ruleId: input.ruleId } };
    const before = await tx.healthCheckPolicy.findUnique({ where, select: { policy: true } });
    if (input.policy === DEFAULT_CHECK_POLICY) await tx.healthCheckPolicy.deleteMany({ where: { teamId: actor.teamId, ruleId: input.ruleId } });
    else {
      const data = { policy: input.policy, updatedById: actor.userId, updatedByEmail: actor.email };
      await tx.healthCheckPolicy.upsert({ where, create: { teamId: actor.teamId, ruleId: input.ruleId, ...data }, update: data });
    }
    await auditByActor(
      actor,
      { action: "health.policy_changed", ip: context.ip ?? null, metadata: { ruleId: input.ruleId, from: parsePolicy(before?.policy), to: input.policy } },
      tx,
    );
  });
}
