import "server-only";
import { abortReason } from "@/lib/promises";
import { metrics } from "@/lib/telemetry/metrics";
import { inSpan, setSpanAttributes } from "@/lib/telemetry/spans";
import { MAX_GET_RETRIES, timeoutMs } from "./config";
import { EmsError, UpstreamUnavailableError } from "./errors";
import { emsLog } from "./log";
import { outboundRequest, type OutboundRequest, type OutboundResponse } from "./outbound";
import { classifyUnreachable, hostOf } from "./unreachable";
import { emsResourceOf } from "./telemetry";
import { plural } from "@/lib/text/plural";

export interface EmsHttpRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  /** The URL's path, for the logs (never the query: it may hold search values). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The caller's signal: aborting it stops the call at once (no retry). */
  signal?: AbortSignal;
  requestId: string;
  /** Short, non-secret id of the credential for the logs. */
  fingerprint: string;
  /** Retry on 5xx, network errors and timeouts (up to MAX_GET_RETRIES times). */
  retry: boolean;
  timeoutMs?: number;
}

export interface EmsHttpResponse {
  status: number;
  headers: Headers;
  bodyText: string;
  /** Epoch ms just before the request (of the attempt that answered) was sent. */
  sentAt: number;
  receivedAt: number;
}

const BACKOFF_BASE_MS = 200;

/** Jittered exponential backoff: between half and all of 200 ms, 400 ms, ... */
export function backoffDelay(retry: number): number {
  const ceiling = BACKOFF_BASE_MS * 2 ** retry;
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** The longest `retries` backoffs can last together: what a deadline covering every attempt must allow for. */
export function maxBackoffTotalMs(retries: number): number {
  return BACKOFF_BASE_MS * (2 ** retries - 1);
}

/** Sleeps, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * One HTTP exchange with the EMS API, through the outbound door (./outbound.ts: the destination
 * policy, DNS checked once per attempt, no redirects), with a per-attempt timeout and, when `retry`
 * is set, up to two retries on 5xx, network errors and timeouts. Returns every answer it gets (4xx
 * and a final 5xx included) for the caller to map; throws the door's refusals (BlockedDestinationError,
 * RedirectRefusedError, InvalidResponseError) at once, never retried; UpstreamUnavailableError when no
 * answer came; or the caller's abort reason. Logs one line per attempt: never a header or a body.
 */
export async function emsHttp(request: EmsHttpRequest): Promise<EmsHttpResponse> {
  const { path } = request;
  const limit = request.timeoutMs ?? timeoutMs();
  const attempts = request.retry ? MAX_GET_RETRIES + 1 : 1;
  for (let attempt = 1; ; attempt++) {
    if (request.signal?.aborted) throw abortReason(request.signal);
    // One controller per attempt, aborted by our timer or by the caller's signal (cheaper than
    // AbortSignal.timeout + AbortSignal.any on every call, and nothing is left behind).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`No answer within ${limit} ms.`, "TimeoutError"));
    }, limit);
    const onCallerAbort = () => controller.abort(abortReason(request.signal!));
    request.signal?.addEventListener("abort", onCallerAbort, { once: true });
    const sentAt = Date.now();
    const started = performance.now();
    const logFields = { requestId: request.requestId, fingerprint: request.fingerprint, method: request.method, path, attempt };
    try {
      const response = await observedAttempt(
        { method: request.method, url: request.url, headers: request.headers, body: request.body, signal: controller.signal },
        path,
        attempt,
      );
      const { bodyText } = response;
      const receivedAt = Date.now();
      const durationMs = Math.round(performance.now() - started);
      const willRetry = response.status >= 500 && attempt < attempts;
      emsLog(response.status >= 500 ? "warn" : "info", "ems.http", { ...logFields, status: response.status, durationMs, retrying: willRetry || undefined });
      if (!willRetry) return { status: response.status, headers: response.headers, bodyText, sentAt, receivedAt };
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      if (request.signal?.aborted) {
        emsLog("info", "ems.http", { ...logFields, status: null, durationMs, outcome: "aborted" });
        throw abortReason(request.signal);
      }
      if (error instanceof EmsError) {
        // A refusal of the door (a blocked destination, a redirect, an unreadable answer): retrying changes nothing.
        emsLog("warn", "ems.http", { ...logFields, status: error.status ?? null, durationMs, outcome: "refused", errorCode: error.code, detail: error.detail });
        throw error;
      }
      const willRetry = attempt < attempts;
      const reason = timedOut ? `no answer within ${limit} ms` : describeNetworkError(error);
      emsLog("warn", "ems.http", { ...logFields, status: null, durationMs, outcome: timedOut ? "timeout" : "network_error", reason, retrying: willRetry || undefined });
      if (!willRetry) {
        throw new UpstreamUnavailableError(`${request.method} ${path}: ${reason} (after ${plural(attempt, "attempt")})`, {
          cause: error,
          timedOut,
          unreachable: classifyUnreachable({ error, host: hostOf(request.url), timedOut, timeoutSeconds: Math.round(limit / 1000) }),
        });
      }
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onCallerAbort);
    }
    await sleep(backoffDelay(attempt - 1), request.signal);
  }
}

/**
 * One attempt through the door, as a span ("EMS GET webhook-groups": resource, method, path, attempt,
 * status, credits left; never the query string or a header) and counted in ems_calls_total.
 */
async function observedAttempt(request: OutboundRequest, path: string, attempt: number): Promise<OutboundResponse> {
  const resource = emsResourceOf(path);
  const attributes = { "ems.resource": resource, "http.request.method": request.method, "url.path": path, "ems.attempt": attempt };
  return inSpan(`EMS ${request.method} ${resource}`, { kind: "client", attributes }, async (span) => {
    let response: OutboundResponse;
    try {
      response = await outboundRequest(request);
    } catch (error) {
      metrics().emsCalls.inc({ resource, status: "error" });
      throw error;
    }
    metrics().emsCalls.inc({ resource, status: String(response.status) });
    if (response.status === 429) metrics().emsRateLimited.inc({ resource });
    const remaining = response.headers.get("x-rate-limit-remaining");
    setSpanAttributes(span, {
      "http.response.status_code": response.status,
      "ems.credits_remaining": remaining !== null && /^\s*\d+\s*$/.test(remaining) ? Number(remaining) : undefined,
    });
    return response;
  });
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (error as { code?: string })?.code;
  const name = error instanceof Error ? error.name : "Error";
  return code ? `${name} (${code})` : name;
}
