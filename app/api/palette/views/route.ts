import { paletteViews } from "@/lib/palette/palette";
import { paletteActor, paletteJson } from "@/lib/palette/route-auth";

export const dynamic = "force-dynamic";

/** GET /api/palette/views: the signed-in person's visible saved views, for the command palette. */
export async function GET() {
  const checked = await paletteActor();
  if ("response" in checked) return checked.response;
  return paletteJson({ views: await paletteViews(checked.actor) });
}
