import "server-only";
import type { Instrumentation } from "next";
import { asDatabaseUnavailable } from "@/lib/db/outage";
import { log } from "@/lib/log";

/**
 * Next.js's failed requests (a page's render, a route handler, a server action, the proxy) as the
 * portal's log lines, through instrumentation.ts's `onRequestError`: one line each, with the route
 * (its pattern, `/webhooks/[id]`: never the address with its ids, tokens or query), the method and
 * the error's class, code and message (lib/log.ts), not Next's multi-line `⨯ Error` with its stack.
 *
 * A failure that means the database went away is logged as such, at warn, and noted
 * (asDatabaseUnavailable): before Next writes the page's 500, so that lib/http/outage-response.ts
 * answers it with the outage page instead.
 *
 * The error is then marked (a WeakSet on globalThis) for scripts/standalone/json-output.cjs, which
 * keeps Next from printing the same error again on stderr.
 */

const LOGGED = Symbol.for("ems-portal.errors-logged-by-instrumentation");

function markLogged(error: unknown): void {
  if (typeof error !== "object" || error === null) return;
  const holder = globalThis as unknown as Record<symbol, WeakSet<object> | undefined>;
  (holder[LOGGED] ??= new WeakSet()).add(error);
}

export const logRequestError: Instrumentation.onRequestError = (error, request, context) => {
  const digest = typeof error === "object" && error !== null ? (error as { digest?: unknown }).digest : undefined;
  const fields = {
    route: context.routePath,
    routeType: context.routeType,
    ...(context.renderSource ? { renderSource: context.renderSource } : {}),
    method: request.method,
    ...(typeof digest === "string" ? { digest } : {}),
    err: error,
  };
  if (asDatabaseUnavailable(error)) log.warn({ event: "request.database_unavailable", ...fields }, "request could not reach the database");
  else log.error({ event: "request.failed", ...fields }, "request failed");
  markLogged(error);
};
