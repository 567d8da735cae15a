import "server-only";
import { revalidatePath } from "next/cache";
import { PLAN_TRANSITIONS, type PlanMove } from "@/lib/plans/lifecycle";

/** After a move on a plan: its page and the list show the new state. */
export function refreshPlan(planId: string): void {
  revalidatePath(`/plans/${planId}`);
  revalidatePath("/plans");
}

/**
 * The re-authentication the pipeline asks before `move` (lib/plans/lifecycle.ts's table): approving,
 * applying, rejecting and cancelling decide what reaches the EMS, so a cookie from an unlocked laptop
 * cannot send a team's registrant data elsewhere, nor stop a fix someone else approved.
 */
export function recentAuthFor(move: PlanMove): "password" | undefined {
  return PLAN_TRANSITIONS[move].reauth === "password" ? "password" : undefined;
}
