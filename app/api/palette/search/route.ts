import { authedRoute, queryObject } from "@/lib/actions/route";
import { jsonResponse, problem } from "@/lib/actions/route-errors";
import { searchRecords } from "@/lib/palette/palette";
import { recordSearchSchema } from "@/lib/palette/validation";

export const dynamic = "force-dynamic";

/**
 * GET /api/palette/search?q=<text>: the person's webhooks whose name or URL contains it and events
 * whose name contains it (or the records with that id), a few of each, read with their own
 * credential. 400 for a missing or unusable `q`; the EMS's failures keep the statuses of the file
 * routes (409 not connected, 403 rejected, 429, 503...). A request another site sent is 403: it would
 * spend the team's credits (20 a search) without the person asking.
 */
export const GET = authedRoute({ name: "palette.search", query: queryObject(recordSearchSchema.shape), fromThisSiteOnly: true }, async ({ q }, { actor }) => {
  const outcome = await searchRecords(actor, q);
  if (outcome.kind === "failed") return problem(outcome.status, outcome.message);
  const { webhooks, webhookTotal, events, eventTotal } = outcome;
  return jsonResponse({ webhooks, webhookTotal, events, eventTotal });
});
