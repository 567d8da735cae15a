import { handleAdminRequest, ADMIN_PREFIX } from "./api/admin";
import type { SandboxControls, SandboxQuirks, SandboxState } from "./api/controls";
import type { Edit } from "./api/edit-schema";
import { handleListing, handleSingleRecord, LISTING_RESOURCES, type ListingResource } from "./api/listing";
import { openApiResponse } from "./api/openapi";
import { TRIGRAM_MIN_ROWS } from "./api/search";
import { handleTokenRequest, secretsEqual } from "./api/token-endpoint";
import { decodeBasicCredentials, type BasicCredentialsResult } from "./core/basic-credentials";
import { SandboxClock, httpDate } from "./core/clock";
import { DEV_SIGNING_SECRET, DEFAULT_ACCOUNTS, parseAccounts, type SandboxAccount, type SandboxOptions } from "./core/config";
import { stderrLogger, type SandboxLogger } from "./core/log";
import { MESSAGES, SandboxHttpError, WWW_AUTHENTICATE_BEARER, errorResponse } from "./core/errors";
import { FaultQueue, breakJson, type CallKind, type FaultRule } from "./core/faults";
import { JSON_CONTENT_TYPE, type SandboxRequest, type SandboxResponse } from "./core/http-types";
import { RateLimiter, rateLimitHeaders, type RateLimitOutcome, type RateLimitSettings } from "./core/rate-limiter";
import { RequestCounters } from "./core/stats";
import { TokenSigner, type TokenCheck } from "./core/tokens";
import { Drift } from "./data/drift";
import { EditedAccounts } from "./data/edited-accounts";
import type { AppliedEdit } from "./data/edits";
import { parseFormBody } from "./api/form-body";
import { handleWrite, WRITE_RESOURCES, type WriteOperation, type WriteResource } from "./api/writes";

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 30 * 60;
const LISTING_COST = 10;
const OTHER_COST = 1;

const API_PREFIX = "/api/v1/";

type Route =
  | { kind: "token" }
  | { kind: "listing"; resource: ListingResource }
  | { kind: "record"; resource: ListingResource; id: string }
  | { kind: "write"; operation: WriteOperation }
  | { kind: "openapi" }
  | { kind: "admin" }
  | { kind: "unknown" };

const isResource = (name: string): name is ListingResource => (LISTING_RESOURCES as readonly string[]).includes(name);

/**
 * Maps a path to what answers it; every path is accepted with and without `.json`
 * (`/events.json`, `/oauth2/token.json`, `/events/1190.json`: docs/ems-api.md §1).
 */
function route(path: string): Route {
  if (path.startsWith(ADMIN_PREFIX)) return { kind: "admin" };
  if (!path.startsWith(API_PREFIX)) return { kind: "unknown" };
  const rest = path.slice(API_PREFIX.length);
  if (rest === "openapi.json") return { kind: "openapi" };
  const name = rest.endsWith(".json") ? rest.slice(0, -5) : rest;
  if (name === "oauth2/token") return { kind: "token" };
  if (isResource(name)) return { kind: "listing", resource: name };
  // Writes (docs/ems-api.md §8): `<resource>/create`, `<resource>/update/{id}`; a DELETE of a record is one too.
  const write = /^(webhooks|webhook-groups)\/(create|update\/([^/]*))$/.exec(name);
  if (write) {
    const resource = write[1] as WriteResource;
    return { kind: "write", operation: write[2] === "create" ? { resource, op: "create" } : { resource, op: "update", rawId: write[3] } };
  }
  const slash = name.indexOf("/");
  if (slash > 0) {
    const resource = name.slice(0, slash);
    const id = name.slice(slash + 1);
    if (isResource(resource) && id !== "" && !id.includes("/")) return { kind: "record", resource, id };
  }
  return { kind: "unknown" };
}

const isWriteResource = (resource: string): resource is WriteResource => (WRITE_RESOURCES as readonly string[]).includes(resource);

/**
 * The write a request asks for: POST `<resource>/create`, PUT `<resource>/update/{id}`, DELETE
 * `<resource>/{id}`; null when it is none (a read, or a method the path does not take: a 405).
 */
function writeOperation(target: Route, method: string): WriteOperation | null {
  if (target.kind === "write") {
    const expected = target.operation.op === "create" ? "POST" : "PUT";
    if (method !== expected) throw new SandboxHttpError(405, `Method ${method} is not allowed here; use ${expected}.`, { allow: expected });
    return target.operation;
  }
  if (target.kind === "record" && method === "DELETE" && isWriteResource(target.resource)) return { resource: target.resource, op: "delete", rawId: target.id };
  return null;
}

function isWrite(target: Route, method: string): boolean {
  return target.kind === "write" || (target.kind === "record" && method === "DELETE" && isWriteResource(target.resource));
}

type Caller = { accountKey?: string; bucket: string; bearer?: TokenCheck; basic?: BasicCredentialsResult; provenAccount?: SandboxAccount };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const INJECTED_MESSAGES: Record<number, string> = {
  401: MESSAGES.invalidBearer,
  403: "You are not allowed to perform this action.",
  404: MESSAGES.notFound,
  429: "Rate limit exceeded.",
  500: MESSAGES.internal,
  503: MESSAGES.unavailable,
};

/**
 * One sandbox: the EMS API contract over in-memory generated data, plus its admin knobs. Pure
 * request-in/response-out; adapters (adapters/node-http.ts, adapters/web-fetch.ts) serve it.
 */
export class Sandbox implements SandboxControls {
  readonly accounts: ReadonlyMap<string, SandboxAccount>;
  private readonly signer: TokenSigner;
  private readonly adminSecret: string | undefined;
  /** Where unexpected errors go (the portal's logger when embedded); the node adapter uses it too. */
  readonly logger: SandboxLogger;
  private readonly clock = new SandboxClock();
  private readonly limiter = new RateLimiter();
  private readonly faults = new FaultQueue();
  private readonly counters = new RequestCounters();
  private tokenLifetimeSeconds = DEFAULT_TOKEN_LIFETIME_SECONDS;
  /** Tokens issued at or before this instant (sandbox clock) are revoked. */
  private revokedUpTo = Number.NEGATIVE_INFINITY;
  private quirks: SandboxQuirks = { webhooksAsObject: false };
  /** What each account is answered from: generated data, or the account's edited copy. */
  private readonly data: EditedAccounts;
  private readonly driftSeconds: number;
  private readonly drift: Drift | undefined;

  constructor(options: SandboxOptions = {}) {
    const accounts = parseAccounts(options.accounts ?? DEFAULT_ACCOUNTS);
    this.accounts = new Map(accounts.map((account) => [account.key, account]));
    this.signer = new TokenSigner(options.signingSecret || DEV_SIGNING_SECRET);
    this.adminSecret = options.adminSecret || undefined;
    this.logger = options.logger ?? stderrLogger;
    this.data = new EditedAccounts(this.accounts);
    this.driftSeconds = options.driftSeconds && options.driftSeconds > 0 ? options.driftSeconds : 0;
    // Drift edits the first account only (the demo one); an account without groups has nothing to edit.
    const [first] = accounts;
    if (this.driftSeconds > 0 && first.groups > 0) {
      this.drift = new Drift(this.driftSeconds, first.seed, (count, seed) => this.driftOnce(first.key, count, seed));
    }
  }

  /** Stops the drift timer; the sandbox keeps answering. */
  close(): void {
    this.drift?.stop();
  }

  private driftOnce(accountKey: string, count: number, seed: number): void {
    try {
      this.applyRandomEdits(accountKey, { count, seed });
    } catch (error) {
      this.logger.error({ event: "sandbox.drift_failed", account: accountKey, err: error }, "sandbox drift edit failed");
    }
  }

  /**
   * Generates every account's data, and the name indexes, now rather than on the first call, so
   * the first search on a large dataset is not the slow one.
   */
  warmUp(): void {
    for (const account of this.accounts.values()) {
      const { groups } = this.data.dataset(account);
      groups.order("name", false);
      groups.order("name", true);
      groups.haystacks("name");
      if (groups.size >= TRIGRAM_MIN_ROWS) groups.trigrams("name");
    }
  }

  /** Synchronous unless a delay fault applies, so the fast path allocates no promise. */
  handle(request: SandboxRequest): SandboxResponse | Promise<SandboxResponse> {
    const target = route(request.path);
    if (target.kind === "admin") return handleAdminRequest(request, this.adminSecret, this);

    const kind: CallKind = target.kind === "token" ? "token" : isWrite(target, request.method) ? "write" : "api";
    const caller = this.identify(target, request);
    const counted = target.kind === "token" || target.kind === "listing" || target.kind === "record" || target.kind === "write";
    if (counted) this.counters.record(kind === "token" ? "token" : "api", caller.accountKey);

    const fault = counted ? this.faults.take(kind, caller.accountKey) : undefined;
    // A write whose answer is lost: it is made now, then the answer is late and/or replaced by the fault.
    if (fault?.afterWrite && kind === "write") {
      const made = this.answer(target, request, caller, undefined);
      const answered = fault.status || fault.malformedJson ? this.answer(target, request, caller, fault, made) : made;
      return fault.delayMs ? sleep(fault.delayMs).then(() => answered) : answered;
    }
    if (fault?.delayMs) {
      return sleep(fault.delayMs).then(() => this.answer(target, request, caller, fault));
    }
    return this.answer(target, request, caller, fault);
  }

  /**
   * Who is calling: the account (for the counters), the rate-limit bucket (a credential only once
   * proven, so wrong guesses cannot spend a real account's credits) and the parsed credentials.
   */
  private identify(target: Route, request: SandboxRequest): Caller {
    const anonymous = `anonymous:${request.remoteAddress ?? "unknown"}`;
    if (target.kind === "token") {
      const basic = decodeBasicCredentials(request.headers.authorization);
      const account = basic.kind === "ok" ? this.accounts.get(basic.key) : undefined;
      // Compared even for an unknown key, so timing does not reveal which keys exist.
      const proven = basic.kind === "ok" && secretsEqual(basic.secret, account?.secret ?? "") && account !== undefined;
      return { accountKey: account?.key, bucket: proven ? account.key : anonymous, basic, provenAccount: proven ? account : undefined };
    }
    const bearer = this.checkBearer(request.headers.authorization);
    if (bearer?.ok) return { accountKey: bearer.token.accountKey, bucket: bearer.token.accountKey, bearer };
    return { bucket: anonymous, bearer };
  }

  private checkBearer(header: string | undefined): TokenCheck | undefined {
    if (!header) return undefined;
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (!match) return { ok: false, reason: "invalid" };
    const check = this.signer.verify(match[1], this.clock.now(), this.revokedUpTo);
    // A token of an account removed from the configuration is as good as unknown.
    if (check.ok && !this.accounts.has(check.token.accountKey)) return { ok: false, reason: "invalid" };
    return check;
  }

  private answer(target: Route, request: SandboxRequest, caller: Caller, fault: FaultRule | undefined, made?: SandboxResponse): SandboxResponse {
    let response: SandboxResponse;
    if (made && !fault?.status) {
      response = made;
    } else if (fault?.status) {
      response = this.injectedFault(target, fault.status, fault.retryAfterSeconds, caller.bucket, fault.quoteSent ? request.body : undefined);
    } else {
      const cost = target.kind === "listing" ? LISTING_COST : OTHER_COST;
      const limit = this.limiter.charge(caller.bucket, cost);
      response = limit.allowed ? this.dispatch(target, request, caller) : this.rateLimited(limit);
      Object.assign(response.headers, rateLimitHeaders(limit));
    }
    response.headers.date = httpDate(this.clock.now());
    if (fault?.malformedJson) response.body = breakJson(response.body);
    return response;
  }

  private dispatch(target: Route, request: SandboxRequest, caller: Caller): SandboxResponse {
    try {
      switch (target.kind) {
        case "token": {
          const credentials = caller.basic ?? decodeBasicCredentials(request.headers.authorization);
          return handleTokenRequest(request, credentials, {
            signer: this.signer,
            // Never issue at the revocation instant itself, so a token asked for right after
            // "revoke all" is valid.
            now: Math.max(this.clock.now(), this.revokedUpTo + 1),
            lifetimeSeconds: this.tokenLifetimeSeconds,
            provenAccount: caller.provenAccount,
          });
        }
        case "openapi":
          if (request.method !== "GET") throw new SandboxHttpError(405, `Method ${request.method} is not allowed here; use GET.`, { allow: "GET" });
          return openApiResponse(request.baseUrl);
        case "listing":
        case "record":
        case "write": {
          const bearer = caller.bearer;
          if (!bearer?.ok) {
            const message =
              bearer?.ok === false && bearer.reason === "expired"
                ? MESSAGES.expiredBearer
                : bearer?.ok === false && bearer.reason === "revoked"
                  ? MESSAGES.revokedBearer
                  : MESSAGES.invalidBearer;
            throw new SandboxHttpError(401, message, { "www-authenticate": WWW_AUTHENTICATE_BEARER });
          }
          const account = this.accounts.get(bearer.token.accountKey)!;
          const write = writeOperation(target, request.method);
          if (write) return this.write(write, request, account);
          if (request.method !== "GET" && request.method !== "HEAD") {
            const allow = target.kind === "record" && isWriteResource(target.resource) ? "GET, HEAD, DELETE" : "GET, HEAD";
            throw new SandboxHttpError(405, `Method ${request.method} is not allowed here; use ${allow.replace(", HEAD", "")}.`, { allow });
          }
          if (target.kind === "write") throw new SandboxHttpError(404, MESSAGES.notFound);
          return target.kind === "listing"
            ? handleListing(target.resource, request, this.data.dataset(account), this.quirks)
            : handleSingleRecord(target.resource, target.id, request, this.data.dataset(account), this.quirks);
        }
        default:
          throw new SandboxHttpError(404, MESSAGES.notFound);
      }
    } catch (error) {
      if (error instanceof SandboxHttpError) return errorResponse(error.status, error.message, { ...error.headers });
      this.logger.error({ event: "sandbox.unexpected_error", method: request.method, path: request.path, err: error }, "sandbox request failed");
      return errorResponse(500, MESSAGES.internal);
    }
  }

  /** A create, update or delete (docs/ems-api.md §8): the account's data is replaced only when it succeeds. */
  private write(operation: WriteOperation, request: SandboxRequest, account: SandboxAccount): SandboxResponse {
    const response = handleWrite(operation, request, account.key, {
      dataset: () => this.data.dataset(account),
      commit: (change) => this.data.commit(account.key, this.clock.now(), change),
    });
    if (response.status < 300) this.counters.record("write", account.key);
    return response;
  }

  private rateLimited(limit: RateLimitOutcome): SandboxResponse {
    return errorResponse(429, `Rate limit exceeded: ${limit.limit} credits per ${this.limiter.settings.windowSeconds} seconds. Retry in ${limit.resetSeconds} seconds.`, {
      "retry-after": String(limit.resetSeconds),
    });
  }

  private injectedFault(target: Route, status: number, retryAfterSeconds: number | undefined, bucket: string, quotedBody?: string): SandboxResponse {
    const headers: Record<string, string> = {};
    const current = this.limiter.peek(bucket);
    if (status === 401) {
      if (target.kind === "token") return this.withLimitHeaders(errorResponse(401, MESSAGES.wrongCredentials), current);
      headers["www-authenticate"] = WWW_AUTHENTICATE_BEARER;
    }
    if (status === 429 || status === 503) headers["retry-after"] = String(retryAfterSeconds ?? 1);
    if (status === 422) {
      // The framework's validation answer is an array of field errors, not the usual error object.
      const quoted = quotedBody === undefined ? undefined : parseFormBody(quotedBody).objectLists.get("headers")?.values().next().value?.get("value");
      const error =
        quoted === undefined ? { field: "name", message: "Name cannot be blank." } : { field: "headers", message: `Header value “${quoted}” is not allowed.` };
      const body = JSON.stringify([error]);
      return this.withLimitHeaders({ status, headers: { "content-type": JSON_CONTENT_TYPE }, body }, current);
    }
    const limitState = status === 429 ? { ...current, remaining: 0, resetSeconds: retryAfterSeconds ?? 1 } : current;
    return this.withLimitHeaders(errorResponse(status, INJECTED_MESSAGES[status] ?? "Injected fault.", headers), limitState);
  }

  private withLimitHeaders(response: SandboxResponse, limit: RateLimitOutcome): SandboxResponse {
    Object.assign(response.headers, rateLimitHeaders(limit));
    return response;
  }

  // ---- admin controls ---------------------------------------------------------------------

  setTokenLifetime(seconds: number): void {
    this.tokenLifetimeSeconds = seconds;
  }

  revokeAllTokens(): void {
    this.revokedUpTo = this.clock.now();
  }

  injectFaults(rule: FaultRule): void {
    this.faults.add(rule);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  setClockOffset(seconds: number): void {
    this.clock.setOffsetSeconds(seconds);
  }

  setRateLimit(settings: Partial<RateLimitSettings>): void {
    this.limiter.configure(settings);
  }

  setQuirks(quirks: Partial<SandboxQuirks>): void {
    this.quirks = { ...this.quirks, ...quirks };
  }

  applyEdits(accountKey: string, edits: readonly Edit[]): AppliedEdit[] {
    return this.data.apply(accountKey, edits, this.clock.now());
  }

  applyRandomEdits(accountKey: string, options: { count: number; seed: number }): AppliedEdit[] {
    return this.data.applyRandom(accountKey, options, this.clock.now());
  }

  stats() {
    return this.counters.snapshot();
  }

  state(): SandboxState {
    return {
      tokenLifetimeSeconds: this.tokenLifetimeSeconds,
      clockOffsetSeconds: this.clock.offsetSeconds,
      pendingFaults: this.faults.pending(),
      rateLimit: { ...this.limiter.settings },
      quirks: { ...this.quirks },
      editedAccounts: this.data.edited(),
      driftSeconds: this.driftSeconds,
    };
  }

  /**
   * Back to a fresh instance's behaviour and the generated data (drift starts its sequence over);
   * issued tokens stay valid unless revoked before.
   */
  reset(): void {
    this.data.reset();
    this.drift?.restart();
    this.tokenLifetimeSeconds = DEFAULT_TOKEN_LIFETIME_SECONDS;
    this.clock.setOffsetSeconds(0);
    this.faults.clear();
    this.counters.reset();
    this.limiter.reset();
    this.quirks = { webhooksAsObject: false };
  }
}
