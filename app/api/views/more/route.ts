import { paletteActor, paletteJson } from "@/lib/palette/route-auth";
import { listMoreViews } from "@/lib/views/tabs";
import { moreViewsRequestSchema } from "@/lib/views/validation";

export const dynamic = "force-dynamic";

/**
 * GET /api/views/more?page=events&q=<part of a name>&offset=0: the signed-in person's views of a
 * listing page that are not among its tabs, a few at a time, for the tabs' "More" list
 * (components/views/more-views.tsx), which asks when it opens. 401 signed out; 400 a bad request.
 */
export async function GET(request: Request) {
  const checked = await paletteActor();
  if ("response" in checked) return checked.response;
  const params = new URL(request.url).searchParams;
  const parsed = moreViewsRequestSchema.safeParse({
    page: params.get("page") ?? undefined,
    q: params.get("q") ?? undefined,
    offset: params.get("offset") ?? undefined,
  });
  if (!parsed.success) return paletteJson({ error: parsed.error.issues[0]?.message ?? "That list cannot be shown." }, 400);
  return paletteJson(await listMoreViews(checked.actor, parsed.data.page, { search: parsed.data.q, offset: parsed.data.offset }));
}
