import { JSON_CONTENT_TYPE, type SandboxResponse } from "./http-types";

/** Reason phrases used as the `name` of the framework's standard error body (docs/ems-api.md §6). */
const ERROR_NAMES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Data Validation Failed",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function errorName(status: number): string {
  return ERROR_NAMES[status] ?? "Error";
}

/** `{ name, message, code, status }`, the error body of every non-2xx answer. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): SandboxResponse {
  return {
    status,
    headers: { "content-type": JSON_CONTENT_TYPE, ...headers },
    body: JSON.stringify({ name: errorName(status), message, code: 0, status }),
  };
}

/**
 * Thrown by request parsing code to short-circuit into an error answer; the router turns it into
 * the standard body. Keeps validators free of response plumbing.
 */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "SandboxHttpError";
  }
}

export function badRequest(message: string): SandboxHttpError {
  return new SandboxHttpError(400, message);
}

export const MESSAGES = {
  invalidBearer: "Your request was made with invalid credentials.",
  expiredBearer: "The access token has expired. Request a new one.",
  revokedBearer: "The access token has been revoked. Request a new one.",
  wrongCredentials: "Your API credentials are wrong.",
  missingBasic: "Send the consumer key and secret as Authorization: Basic <Base64 of key:secret>.",
  malformedBasic: "The Authorization header is not valid Basic credentials (Base64 of <key>:<secret>).",
  notFound: "Page not found.",
  internal: "An internal server error occurred.",
  unavailable: "The service is temporarily unavailable. Try again later.",
} as const;

export const WWW_AUTHENTICATE_BEARER = 'Bearer error="invalid_token"';
