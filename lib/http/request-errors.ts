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
 * A browser that leaves while a page is still streaming (a navigation, a closed tab, a development
 * reload) makes React cancel the render with one of CLIENT_LEFT's messages: the client's doing, not
 * a failure of ours, so it is an info line ("request.client_left"), not an error that pages someone.
 *
 * The error is then marked (a WeakSet on globalThis) for scripts/standalone/json-output.cjs, which
 * keeps Next from printing the same error again on stderr.
 */

/** React's words (react-dom/server, react-server-dom) when the response it is writing to errors or closes. */
const CLIENT_LEFT = /^The destination stream (errored while writing data|closed early)\.$/;

function isClientLeft(error: unknown): boolean {
  return error instanceof Error && CLIENT_LEFT.test(error.message);
}

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
  if (isClientLeft(error)) log.info({ event: "request.client_left", route: context.routePath, method: request.method }, "the client left before the answer was written");
  else if (asDatabaseUnavailable(error)) log.warn({ event: "request.database_unavailable", ...fields }, "request could not reach the database");
  else log.error({ event: "request.failed", ...fields }, "request failed");
  markLogged(error);
};
