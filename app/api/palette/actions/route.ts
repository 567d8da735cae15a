import { authedRoute } from "@/lib/actions/route";
import { jsonResponse } from "@/lib/actions/route-errors";
import { paletteSyncTargets } from "@/lib/palette/palette";

export const dynamic = "force-dynamic";

/** GET /api/palette/actions: what the palette's actions need from the server (the syncs an owner or admin may start). */
export const GET = authedRoute({ name: "palette.actions" }, async (_query, { actor }) => jsonResponse({ syncTargets: await paletteSyncTargets(actor) }));
