import "server-only";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { credentialStateIfReadable, emsConfig, flushBudgetUsage, usageByKind, type KindUsage } from "@/lib/ems";
import { budgetOf, type RateBudget } from "@/lib/ems-access/shared-read";

/** What the settings page shows about the rate-limit budget of the actor's own credential. */
export interface BudgetOverview {
  /** The last figures the EMS sent for this key (every user of the key spends from it); null: none yet. */
  budget: RateBudget | null;
  /** What the actor's team spent with this key over the last hour, by kind of work. */
  usage: KindUsage[];
  totalCredits: number;
  reservePercent: number;
  sharedAnswerSeconds: number;
}

/** Null when the actor has saved no credentials. Another team using the same key is not counted. */
export async function getBudgetOverview(actor: Actor): Promise<BudgetOverview | null> {
  const row = await prisma.apiCredential.findUnique({ where: { userId: actor.userId }, select: { fingerprint: true } });
  if (!row) return null;
  // This instance's last second of usage, so a page view made just before shows here.
  await flushBudgetUsage();
  const [state, usage] = await Promise.all([credentialStateIfReadable(row.fingerprint, "credentials.budget"), usageByKind(actor.teamId, row.fingerprint)]);
  const config = emsConfig();
  return {
    budget: budgetOf(state?.rateLimit),
    usage,
    totalCredits: usage.reduce((sum, kind) => sum + kind.credits, 0),
    reservePercent: Math.round(config.backgroundReserveShare * 100),
    sharedAnswerSeconds: Math.round(config.sharedAnswerMs / 1000),
  };
}
