import { authedRoute, queryObject } from "@/lib/actions/route";
import { jsonResponse } from "@/lib/actions/route-errors";
import { listMoreViews } from "@/lib/views/tabs";
import { moreViewsRequestSchema } from "@/lib/views/validation";

export const dynamic = "force-dynamic";

/**
 * GET /api/views/more?page=events&q=<part of a name>&offset=0: the signed-in person's views of a
 * listing page that are not among its tabs, a few at a time, for the tabs' "More" list
 * (components/views/more-views.tsx), which asks when it opens. 401 signed out; 400 a bad request.
 */
export const GET = authedRoute({ name: "views.more", query: queryObject(moreViewsRequestSchema.shape) }, async ({ page, q, offset }, { actor }) =>
  jsonResponse(await listMoreViews(actor, page, { search: q, offset })),
);
