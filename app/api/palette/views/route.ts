import { authedRoute } from "@/lib/actions/route";
import { jsonResponse } from "@/lib/actions/route-errors";
import { paletteViews } from "@/lib/palette/palette";

export const dynamic = "force-dynamic";

/** GET /api/palette/views: the signed-in person's visible saved views, for the command palette. */
export const GET = authedRoute({ name: "palette.views" }, async (_query, { actor }) => jsonResponse({ views: await paletteViews(actor) }));
