import "server-only";
import { z } from "zod";
import { MAX_GET_RETRIES, timeoutMs, TOKEN_PATH } from "./config";
import { basicAuthorization, type EmsCredential } from "./credentials";
import { CredentialsRejectedError, EmsBadRequestError, InvalidResponseError, RateLimitedError, UpstreamUnavailableError } from "./errors";
import { computeTokenExpiry, parseDateHeader, parseExpiresAt } from "./expiry";
import { emsHttp, maxBackoffTotalMs } from "./http";
import { emsLog, shortId } from "./log";
import { parseRateLimit, recordRateLimit, retryAfterSeconds } from "./rate-limit";
import { apiErrorMessage } from "./responses";
import { classifyUnreachable, hostOf } from "./unreachable";
import type { CachedToken } from "./state";
import { metrics } from "@/lib/telemetry/metrics";
import { inSpan, setSpanAttributes } from "@/lib/telemetry/spans";

/** The token endpoint (contract section 2): one request for a new token, and nothing about storing it. */

const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_at: z.unknown().optional(),
});

/**
 * The longest a token request can take with its retries (every attempt timing out, every backoff at
 * its ceiling): the token lease (token-cache.ts) is sized from it, so that a live holder is done
 * before anyone may take its lease over.
 */
export function tokenRequestDeadlineMs(): number {
  return timeoutMs() * (MAX_GET_RETRIES + 1) + maxBackoffTotalMs(MAX_GET_RETRIES);
}

/**
 * POST /api/v1/oauth2/token. Safe to repeat (a token request only issues a token), so it is retried
 * like a GET. The result has no ciphertext yet: it is not stored anywhere.
 */
export async function requestToken(credential: EmsCredential, requestId: string, signal?: AbortSignal): Promise<CachedToken> {
  // A span with the attempts as its children, and a count by result: never the key, secret or token.
  return inSpan("EMS token request", { kind: "internal" }, async (span) => {
    let result = "failed";
    try {
      const token = await requestTokenOnce(credential, requestId, signal);
      result = "issued";
      return token;
    } catch (error) {
      result = error instanceof CredentialsRejectedError ? "rejected" : error instanceof RateLimitedError ? "rate_limited" : "failed";
      throw error;
    } finally {
      metrics().emsTokenRequests.inc({ result });
      setSpanAttributes(span, { "ems.token.result": result });
    }
  });
}

async function requestTokenOnce(credential: EmsCredential, requestId: string, signal?: AbortSignal): Promise<CachedToken> {
  const { fingerprint } = credential;
  const response = await emsHttp({
    method: "POST",
    url: `${credential.baseUrl.replace(/\/+$/, "")}${TOKEN_PATH}`,
    path: TOKEN_PATH,
    headers: {
      Authorization: basicAuthorization(credential.consumerKey, credential.consumerSecret),
      "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
      Accept: "application/json",
    },
    body: "grant_type=client_credentials",
    signal,
    requestId,
    fingerprint: shortId(fingerprint),
    retry: true,
  });
  const rateLimit = parseRateLimit(response.headers, response.receivedAt);
  // Kept in memory now and written in the background: the caller is waiting for its token.
  if (rateLimit) recordRateLimit(fingerprint, rateLimit, response.receivedAt);
  if (response.status === 401 || response.status === 403) {
    const apiMessage = apiErrorMessage(response.bodyText);
    throw new CredentialsRejectedError(`The token request was refused (${response.status}${apiMessage ? `: ${apiMessage}` : ""}).`, response.status);
  }
  if (response.status === 429) throw new RateLimitedError(retryAfterSeconds(response.headers, response.receivedAt), "token endpoint answered 429", rateLimit);
  if (response.status >= 500) {
    const unreachable = classifyUnreachable({ host: hostOf(credential.baseUrl), status: response.status });
    throw new UpstreamUnavailableError(`token endpoint answered ${response.status}`, { status: response.status, unreachable });
  }
  if (response.status !== 200) {
    throw new EmsBadRequestError(apiErrorMessage(response.bodyText) ?? `the token endpoint answered ${response.status}`, response.status);
  }
  let body: unknown;
  try {
    body = JSON.parse(response.bodyText);
  } catch {
    throw new InvalidResponseError("token endpoint answered with a body that is not JSON", response.status);
  }
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success) throw new InvalidResponseError("token response has no access_token", response.status);
  const expiresAt = parseExpiresAt(parsed.data.expires_at);
  if (!expiresAt) {
    emsLog("warn", "ems.token_expiry_unreadable", { requestId, fingerprint: shortId(fingerprint) });
  }
  const expiry = computeTokenExpiry({ expiresAt, serverDate: parseDateHeader(response.headers.get("date")), requestSentAt: response.sentAt });
  emsLog("info", "ems.token", {
    requestId,
    fingerprint: shortId(fingerprint),
    source: "token_endpoint",
    validForSeconds: Math.round((expiry - Date.now()) / 1000),
  });
  return { value: parsed.data.access_token, expiresAt: expiry, obtainedAt: response.sentAt, ciphertext: null };
}
