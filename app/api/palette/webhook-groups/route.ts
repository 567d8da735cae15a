import { searchWebhookGroups } from "@/lib/palette/palette";
import { paletteActor, paletteJson } from "@/lib/palette/route-auth";
import { groupSearchSchema } from "@/lib/palette/validation";

export const dynamic = "force-dynamic";

/**
 * GET /api/palette/webhook-groups?q=<part of a name>: the first ten of the person's webhook groups
 * whose name contains it, read with their own credential. 400 for a missing or unusable `q`; the
 * EMS's failures keep the statuses of the file routes (409 not connected, 403 rejected, 429, 503...).
 */
export async function GET(request: Request) {
  const checked = await paletteActor();
  if ("response" in checked) return checked.response;
  const url = new URL(request.url);
  const parsed = groupSearchSchema.safeParse({ q: url.searchParams.get("q") ?? undefined });
  if (!parsed.success) return paletteJson({ error: parsed.error.issues[0]?.message ?? "That search cannot be used." }, 400);
  const outcome = await searchWebhookGroups(checked.actor, parsed.data.q);
  if (outcome.kind === "failed") return paletteJson({ error: outcome.message }, outcome.status);
  return paletteJson({ groups: outcome.groups, total: outcome.total });
}
