import { fromAnotherSite } from "@/lib/security/fetch-metadata";
import "server-only";
import { randomUUID } from "node:crypto";
import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { getActor } from "@/lib/auth/session";
import { mustEnrolTwoFactor, type Actor } from "@/lib/access/actor";
import { clientIpFrom } from "@/lib/auth/request-meta";
import { assertRecentProof } from "@/lib/access/recent-auth";
import type { ReauthProof } from "@/lib/forms/action-state";
import { pageSearchParams } from "@/lib/page-search-params";
import { errorResponse, problem } from "./route-errors";

/**
 * The one way to write a route handler for a signed-in person (app/api/…), the route-side twin of
 * `authedAction` (./pipeline.ts). An API route is a public endpoint like an action, so every one goes
 * through the same steps, in this order:
 *
 *   1. a request id, sent back on every answer as `X-Request-Id`;
 *   2. the actor from the session cookie, checked against the database (signed out: 401 JSON, never
 *      a redirect: the caller is a fetch, not a page); a person whose team requires two-factor and
 *      who has not enrolled: 403, unless `allowTwoFactorSetup`;
 *   3. `recentAuth: true | "password"`: this session re-authenticated (or proved its password)
 *      within the window, else 403 `{ error, reauthRequired: "any" | "password" }`, which the
 *      browser answers by asking for it and sending the same request again (the export button);
 *   4. the query: the request's `URLSearchParams`, through the one parser of a URL (control
 *      characters never reach a query of the database), parsed by the route's zod schema (invalid:
 *      400 with the first issue's message); `recentAuth` as a function decides from the parsed
 *      query (and the path's params) once they are known;
 *   5. the handler, which answers the Response;
 *   6. errors, mapped once (./route-errors.ts): NotFoundError 404, ForbiddenError 403, the EMS's
 *      refusals their listing statuses, other SafeErrors 400/409; anything else is logged with the
 *      request id and answered 500 with its first eight characters as a reference.
 *
 *   export const GET = authedRoute({ name: "palette.views" }, async (_query, { actor }) =>
 *     jsonResponse({ views: await paletteViews(actor) }),
 *   );
 */

export interface AuthedRouteContext<TParams> {
  actor: Actor;
  /** Unique per request: in `X-Request-Id`, in the log line of an unexpected error, for the calls the handler makes. */
  requestId: string;
  /** The client's address, for audit records (lib/auth/request-meta.ts). */
  ip: string;
  request: Request;
  /** The path's dynamic segments (`/api/export/[resource]`: `{ resource }`). */
  params: TParams;
}

/** The path's params, as Next hands them to a route handler (absent for a route without dynamic segments). */
type NextRouteArgs<TParams> = { params: Promise<TParams> };

type NoQuery = z.ZodType<undefined, URLSearchParams>;

export interface RouteConfig<TQuery extends z.ZodType<unknown, URLSearchParams>, TParams> {
  /** Names the route in logs, `<domain>.<what>`, e.g. "listing.export". */
  name: string;
  /** Parses the request's URLSearchParams: `queryObject({...})` for named parameters, or a schema of its own. */
  query?: TQuery;
  /**
   * A sensitive route: a recent re-authentication (true), or the password itself ("password"); a
   * function: sensitive for the parsed queries (and params) it returns true for.
   */
  recentAuth?: true | "password" | ((query: z.output<TQuery>, params: TParams) => boolean);
  /** Open to a person who must still enrol in two-factor. */
  allowTwoFactorSetup?: boolean;
  /**
   * Spends the team's EMS credits on a GET: refused (403) when the browser says another site sent
   * the request (lib/security/fetch-metadata.ts), so a crafted link cannot spend them for a person.
   */
  fromThisSiteOnly?: boolean;
}

export type RouteHandler<TQuery extends z.ZodType, TParams> = (query: z.output<TQuery>, context: AuthedRouteContext<TParams>) => Promise<Response>;

export function authedRoute<TParams = Record<string, never>, TQuery extends z.ZodType<unknown, URLSearchParams> = NoQuery>(
  config: RouteConfig<TQuery, TParams>,
  handler: RouteHandler<TQuery, TParams>,
): (request: Request, context?: NextRouteArgs<TParams>) => Promise<Response> {
  return async function handleRoute(request, context) {
    const requestId = randomUUID();
    const response = await answer(config, handler, request, context, requestId).catch((error: unknown) => {
      // redirect(), notFound() and Next's other control-flow errors are Next's to answer.
      unstable_rethrow(error);
      return errorResponse(error, { route: config.name, requestId });
    });
    return withRequestId(response, requestId);
  };
}

async function answer<TQuery extends z.ZodType<unknown, URLSearchParams>, TParams>(
  config: RouteConfig<TQuery, TParams>,
  handler: RouteHandler<TQuery, TParams>,
  request: Request,
  context: NextRouteArgs<TParams> | undefined,
  requestId: string,
): Promise<Response> {
  if (config.fromThisSiteOnly && fromAnotherSite(request.headers))
    return problem(403, "Open this from the portal itself: a link from another site does not spend your team's API credits.");
  const actor = await getActor();
  if (!actor) return problem(401, "Sign in first.");
  if (!config.allowTwoFactorSetup && mustEnrolTwoFactor(actor)) return problem(403, "Your team requires two-factor sign-in: set it up first.");
  // Before the query is even parsed: nothing of a sensitive route runs without it.
  const proof = fixedProof(config.recentAuth);
  if (proof) assertRecentProof(actor, proof);

  const params = ((await context?.params) ?? {}) as TParams;
  const parsed = await (config.query ?? NO_QUERY).safeParseAsync(pageSearchParams(new URL(request.url).searchParams));
  if (!parsed.success) return problem(400, parsed.error.issues[0]?.message ?? "That request cannot be served.");
  const query = parsed.data as z.output<TQuery>;
  if (typeof config.recentAuth === "function" && config.recentAuth(query, params)) assertRecentProof(actor, "any");

  const ip = clientIpFrom((name) => request.headers.get(name));
  return handler(query, { actor, requestId, ip, request, params });
}

function fixedProof(recentAuth: true | "password" | ((...args: never[]) => boolean) | undefined): ReauthProof | null {
  if (recentAuth === true) return "any";
  if (recentAuth === "password") return "password";
  return null;
}

/** A route that reads no query: whatever the URL carries is ignored, as before. */
const NO_QUERY: NoQuery = z.instanceof(URLSearchParams).transform(() => undefined);

/**
 * Named query parameters, each given at most once (a repeated one is refused by name: which of two
 * values was meant is a guess the route will not make), parsed by `shape`'s schemas. A parameter
 * that is absent is `undefined`, so `.default()` and `.optional()` work as for a form.
 */
export function queryObject<TShape extends z.ZodRawShape>(shape: TShape) {
  return z
    .instanceof(URLSearchParams)
    .transform((params, ctx) => {
      const values: Record<string, unknown> = {};
      for (const key of Object.keys(shape)) {
        const all = params.getAll(key);
        if (all.length > 1) ctx.addIssue({ code: "custom", message: `?${key}= is given more than once.` });
        if (all.length > 0) values[key] = all[0]!;
      }
      return values;
    })
    .pipe(z.object(shape) as z.ZodType<z.output<z.ZodObject<TShape>>, Record<string, unknown>>);
}

/** Every answer names its request, so a failure a person reports can be found in the logs. */
function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set("X-Request-Id", requestId);
    return response;
  } catch {
    // Headers of a Response made elsewhere (a fetch's, a redirect's) are immutable: copy them.
    const copy = new Response(response.body, response);
    copy.headers.set("X-Request-Id", requestId);
    return copy;
  }
}
