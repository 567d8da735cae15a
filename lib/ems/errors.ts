import "server-only";
import { formatSeconds } from "@/lib/duration";
import { SafeError } from "@/lib/errors";
import type { Unreachable } from "./unreachable";

/**
 * The typed errors of the EMS client. Each carries `userMessage`, written for the person using the
 * portal, and is a SafeError (`message` === `userMessage`, a `code`), so `userMessageOf()` from
 * lib/errors shows it. Details for the logs live in `detail`, never in the
 * user message.
 */
export class EmsError extends SafeError {
  readonly userMessage: string;
  /** HTTP status of the answer that caused it, when there was one. */
  readonly status?: number;
  /** For logs only: what exactly went wrong. Never holds a token or a secret. */
  readonly detail?: string;

  constructor(userMessage: string, options: { code: string; status?: number; detail?: string; cause?: unknown }) {
    super(userMessage, options.code);
    if (options.cause !== undefined) this.cause = options.cause;
    this.name = new.target.name;
    this.userMessage = userMessage;
    this.status = options.status;
    this.detail = options.detail;
  }
}

/** The EMS API refused the key and secret (token endpoint 401, or 401 twice with a fresh token). */
export class CredentialsRejectedError extends EmsError {
  constructor(detail?: string, status = 401) {
    super("The EMS API rejected your API credentials. Check the consumer key and secret in Settings.", {
      code: "ems_credentials_rejected",
      status,
      detail,
    });
  }
}

/** Over the rate limit: try again in `retryAfterSeconds`. */
export class RateLimitedError extends EmsError {
  readonly retryAfterSeconds: number;
  /** The rate-limit figures known when it was thrown (for the UI to show the budget), if any. */
  readonly rateLimit: { limit: number; remaining: number; resetAt: Date } | null;
  constructor(retryAfterSeconds: number, detail?: string, rateLimit: { limit: number; remaining: number; resetAt: Date } | null = null) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(`The EMS API rate limit for your credentials is used up. Try again in ${formatSeconds(seconds)}.`, {
      code: "ems_rate_limited",
      status: 429,
      detail,
    });
    this.retryAfterSeconds = seconds;
    this.rateLimit = rateLimit;
  }
}

/**
 * 5xx, a network error or a timeout (after the retries a GET gets). `unreachable` (lib/ems/unreachable.ts)
 * names the cause and the host ("Couldn't resolve api.exmple.com: check the base URL."); without it the
 * message is the general one.
 */
export class UpstreamUnavailableError extends EmsError {
  readonly unreachable: Unreachable | null;
  constructor(detail: string, options: { status?: number; cause?: unknown; timedOut?: boolean; unreachable?: Unreachable } = {}) {
    super(
      options.unreachable?.message ??
        (options.timedOut ? "The EMS API did not answer in time. Please try again in a moment." : "The EMS API is unavailable right now. Please try again in a moment."),
      { code: options.timedOut || options.unreachable?.reason === "timeout" ? "ems_timeout" : "ems_unavailable", status: options.status, detail, cause: options.cause },
    );
    this.unreachable = options.unreachable ?? null;
  }
}

/** The API refused the request (400, 403, 404, 405, 415, 422): `apiMessage` is what it said. */
export class EmsBadRequestError extends EmsError {
  readonly apiMessage: string;
  constructor(apiMessage: string, status: number) {
    super(`The EMS API refused the request: ${apiMessage}`, { code: "ems_bad_request", status, detail: apiMessage });
    this.apiMessage = apiMessage;
  }
}

/** The answer could not be read (not JSON, or not the shape the contract describes). */
export class InvalidResponseError extends EmsError {
  constructor(detail: string, status?: number) {
    super("The EMS API sent an answer the portal could not read. Please try again; if it persists, contact support.", {
      code: "ems_invalid_response",
      status,
      detail,
    });
  }
}

/** A listing query that cannot be sent as it is (unknown field, bad operator, a value with `&`, ...). */
export class InvalidQueryError extends EmsError {
  readonly issues: string[];
  constructor(issues: string[]) {
    super(`The query cannot be sent to the EMS API: ${issues.join("; ")}`, { code: "ems_invalid_query", detail: issues.join("; ") });
    this.issues = issues;
  }
}

/** The credential's base URL breaks the contract's rule (lib/ems/contract.ts `checkBaseUrl`); the message says what to fix. */
export class InvalidBaseUrlError extends EmsError {
  constructor(message: string) {
    super(message, { code: "ems_invalid_base_url" });
  }
}

/**
 * The destination policy (lib/ems/destination.ts) refused where a call would go: a private or
 * reserved address, a host the operator does not allow, or plain HTTP. Nothing was sent; it is never
 * retried. `reason` is for logs and tests.
 */
export class BlockedDestinationError extends EmsError {
  readonly reason: string;
  constructor(message: string, options: { reason: string; detail: string }) {
    super(`The portal will not connect to the saved base URL. ${message}`, { code: "ems_blocked_destination", detail: options.detail });
    this.reason = options.reason;
  }
}

/** The answer was a redirect. The EMS API never redirects, and the portal follows none (it could lead anywhere). */
export class RedirectRefusedError extends EmsError {
  constructor(detail: string, status: number) {
    super("The EMS API answered with a redirect, which the portal does not follow. Check the base URL in Settings.", { code: "ems_redirect", status, detail });
  }
}

/** One field the EMS refused in a write (a 422, docs/ems-api.md §6, §8.1): the field as sent and the EMS's words, cleaned. */
export type EmsFieldError = { field: string; message: string };

/**
 * The EMS refused a change because of its fields (422): `fieldErrors` holds each field's message,
 * so a form can show them next to the fields. Nothing was changed.
 */
export class EmsValidationError extends EmsError {
  readonly fieldErrors: readonly EmsFieldError[];
  constructor(fieldErrors: EmsFieldError[]) {
    const summary = fieldErrors.map((error) => (error.field ? `${error.field}: ${error.message}` : error.message)).join("; ");
    super(`The EMS refused the change: ${summary || "some fields are not valid"}`, { code: "ems_validation", status: 422, detail: summary });
    this.fieldErrors = fieldErrors;
  }
}

/** The EMS does not offer this change through its API (a 405, or a 404 on a write path): nothing was changed, nothing is retried. */
export class WriteNotOfferedError extends EmsError {
  readonly operation: string;
  constructor(operation: string, what: string, status: number) {
    super(`This EMS does not offer ${what} through its API. Make the change in the EMS web app, or ask its provider.`, {
      code: "ems_write_not_offered",
      status,
      detail: `${operation} answered ${status}`,
    });
    this.operation = operation;
  }
}

/** The record a change was meant for no longer exists in the EMS (a 404 on update, confirmed by reading it). */
export class RecordGoneError extends EmsError {
  constructor(what: string, id: number) {
    super(`The ${what} ${id} no longer exists in the EMS: it was deleted there.`, {
      code: "ems_record_gone",
      status: 404,
      detail: `${what} ${id}: 404, and a read answered 404`,
    });
  }
}

/**
 * A write got no clear answer (a timeout or 5xx) and the check that followed could not tell whether
 * it was made (that read failed too). Nothing is retried: the person checks the record first.
 */
export class WriteOutcomeUnknownError extends EmsError {
  constructor(detail: string, cause?: unknown) {
    super("The EMS did not answer, and the portal could not check whether the change was made. Check the record in the EMS before trying again.", {
      code: "ems_write_outcome_unknown",
      detail,
      cause,
    });
  }
}

export function isEmsError(error: unknown): error is EmsError {
  return error instanceof EmsError;
}
