import "server-only";
import { getActor } from "@/lib/auth/session";
import { mustEnrolTwoFactor, type Actor } from "@/lib/access/actor";

/** A JSON answer the browser never caches (the palette's answers are per person). */
export function paletteJson(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "private, no-store" } });
}

/**
 * The palette's route handlers' check, done here and never left to the proxy: a session that is
 * open (401 otherwise), of a person who is not held at two-factor enrolment (403).
 */
export async function paletteActor(): Promise<{ actor: Actor } | { response: Response }> {
  const actor = await getActor();
  if (!actor) return { response: paletteJson({ error: "Sign in first." }, 401) };
  if (mustEnrolTwoFactor(actor)) return { response: paletteJson({ error: "Your team requires two-factor sign-in: set it up first." }, 403) };
  return { actor };
}
