import { authedRoute } from "@/lib/actions/route";
import { jsonResponse } from "@/lib/actions/route-errors";
import { NotFoundError } from "@/lib/errors";
import { loadPlanProgress } from "@/lib/plans/page";

export const dynamic = "force-dynamic";

/**
 * GET /api/plans/{id}/progress: how far a plan's apply has come (the plan page polls it every two
 * seconds while the plan is applied, instead of rendering the whole page again). 404 for a plan of
 * another team or none.
 */
export const GET = authedRoute<{ id: string }>({ name: "plans.progress" }, async (_query, { actor, params }) => {
  if (!/^[0-9a-f-]{36}$/.test(params.id)) throw new NotFoundError("That plan no longer exists, or it is not in your team.");
  return jsonResponse(await loadPlanProgress(actor, params.id));
});
