import { authedRoute } from "@/lib/actions/route";
import { jsonResponse } from "@/lib/actions/route-errors";
import { NotFoundError } from "@/lib/errors";
import { loadPlanProgress } from "@/lib/plans/page";
import { PLAN_NOT_FOUND } from "@/lib/plans/plan-access";
import { parsePlanId } from "@/lib/plans/plan-id";

export const dynamic = "force-dynamic";

/**
 * GET /api/plans/{id}/progress: how far a plan's apply has come (the plan page polls it every two
 * seconds while the plan is applied, instead of rendering the whole page again). 404 for a plan of
 * another team or none.
 */
export const GET = authedRoute<{ id: string }>({ name: "plans.progress" }, async (_query, { actor, params }) => {
  const planId = parsePlanId(params.id);
  if (planId === null) throw new NotFoundError(PLAN_NOT_FOUND);
  return jsonResponse(await loadPlanProgress(actor, planId));
});
