import "server-only";
import { isReauthRequired } from "@/lib/access/recent-auth";
import { EmsError, RateLimitedError } from "@/lib/ems/errors";
import { BadRequestError, GENERIC_ERROR_MESSAGE, isFieldError, isSafeError } from "@/lib/errors";
import { FAILURE_STATUS, failureOf } from "@/lib/ems-access/shared-read";
import { asDatabaseUnavailable } from "@/lib/db/outage";
import { BusyError } from "@/lib/admission";
import { retryAfterSeconds } from "@/lib/http/outage-page";
import { log } from "@/lib/log";

/**
 * The one mapping from what a route handler threw to the HTTP answer (lib/actions/route.ts), so
 * that every API route refuses the same way: JSON `{ error }` with a message written for people,
 * never cached. Only SafeError messages leave; anything else is logged under the request id and
 * answered 500 with a reference to it.
 */

/** A JSON answer the browser and proxies never store: every API answer here is about one person. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "private, no-store", ...headers } });
}

/** Shorthand for a refusal: `{ error: message }`. */
export function problem(status: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error: message }, status, headers);
}

/** SafeError codes whose meaning has an HTTP status of its own (the rest: 409, a conflict with the state of things). */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  not_found: 404,
  forbidden: 403,
  two_factor_required: 403,
  team_requires_two_factor: 403,
  throttled: 429,
  // The server's key changed: nothing the person's request did; they must enter their credentials again.
  credential_unreadable: 500,
  no_credential: 409,
};

export function errorResponse(error: unknown, context: { route: string; requestId: string }): Response {
  // Header values and the like: the browser asks for the password (or a code) and sends the same request again.
  if (isReauthRequired(error)) return jsonResponse({ error: error.message, reauthRequired: error.reauthRequired }, 403);
  // The EMS's own refusals keep the statuses the listing pages' file routes always had.
  if (error instanceof EmsError) {
    const failure = failureOf(error, context.requestId);
    const headers: Record<string, string> =
      error instanceof RateLimitedError && failure.kind === "rate-limited" ? { "Retry-After": String(failure.retryAfterSeconds) } : {};
    return problem(FAILURE_STATUS[failure.kind], error.userMessage, headers);
  }
  // The database is out of reach: 503 and when to try again, as the pages say (proxy.ts).
  const unavailable = asDatabaseUnavailable(error);
  if (unavailable) return problem(503, unavailable.message, { "Retry-After": String(retryAfterSeconds(0)) });
  if (error instanceof BadRequestError || isFieldError(error)) return problem(400, error.message);
  // Heavy work refused while others of its kind run (lib/admission.ts): when to try again.
  if (error instanceof BusyError) return problem(429, error.message, { "Retry-After": String(error.retryAfterSeconds) });
  if (isSafeError(error)) return problem(STATUS_BY_CODE[(error as { code?: string }).code ?? ""] ?? 409, error.message);
  log.error(
    {
      event: "route.failed",
      route: context.route,
      requestId: context.requestId,
      // Class, code and message only (lib/log.ts's serializeError): no stack, nothing attached.
      err: error,
    },
    "route handler failed",
  );
  return problem(500, `${GENERIC_ERROR_MESSAGE} (reference ${context.requestId.slice(0, 8)})`);
}
