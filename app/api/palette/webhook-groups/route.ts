import { authedRoute, queryObject } from "@/lib/actions/route";
import { jsonResponse, problem } from "@/lib/actions/route-errors";
import { searchWebhookGroups } from "@/lib/palette/palette";
import { groupSearchSchema } from "@/lib/palette/validation";

export const dynamic = "force-dynamic";

/**
 * GET /api/palette/webhook-groups?q=<part of a name>: the first ten of the person's webhook groups
 * whose name contains it, read with their own credential. 400 for a missing or unusable `q`; the
 * EMS's failures keep the statuses of the file routes (409 not connected, 403 rejected, 429, 503...).
 */
export const GET = authedRoute({ name: "palette.webhook-groups", query: queryObject(groupSearchSchema.shape) }, async ({ q }, { actor }) => {
  const outcome = await searchWebhookGroups(actor, q);
  if (outcome.kind === "failed") return problem(outcome.status, outcome.message);
  return jsonResponse({ groups: outcome.groups, total: outcome.total });
});
