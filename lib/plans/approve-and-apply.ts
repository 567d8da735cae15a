import "server-only";
import type { Actor } from "@/lib/access/actor";
import type { RequestContext } from "@/lib/access/guards";
import { assertRecentPassword } from "@/lib/access/recent-auth";
import { ForbiddenError } from "@/lib/errors";
import { startApply } from "./apply";
import { decideApproveAndApply } from "./lifecycle";
import { FACT_COLUMNS, planFacts, planOfTeam, PlanStateError } from "./plan-access";
import { approvePlan } from "./review";

/**
 * A reviewer approves a drafted fix and starts applying it in one step (issue 37 §2), with a recent
 * password: lifecycle.ts `decideApproveAndApply` first (both moves, as the page offers them), then
 * the two moves' own functions, each checking again and moving the plan by its conditional UPDATE.
 * The steps run in the background as any apply's (lib/plans/run.ts). Both moves are audited.
 */
export async function approveAndApplyPlan(actor: Actor, planId: string, context: RequestContext = {}): Promise<void> {
  const plan = await planOfTeam(actor, planId, FACT_COLUMNS);
  const { who, facts } = await planFacts(actor, plan);
  const decision = decideApproveAndApply(who, facts);
  if (!decision.allowed && (decision.because === "who" || decision.because === "account")) throw new ForbiddenError(decision.message);
  assertRecentPassword(actor);
  if (!decision.allowed) throw new PlanStateError(decision.message);
  await approvePlan(actor, planId, context);
  await startApply(actor, planId, context);
}
