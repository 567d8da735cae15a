import { randomBytes } from "node:crypto";
import { ADMIN_SECRET_HEADER } from "./api/admin";
import type { SandboxQuirks, SandboxState } from "./api/controls";
import type { EditInput } from "./api/edit-schema";
import type { SandboxAccountConfig } from "./core/config";
import type { FaultRuleInput } from "./core/faults";
import type { RateLimitSettings } from "./core/rate-limiter";
import type { SandboxStats } from "./core/stats";
import type { AppliedEdit } from "./data/edits";
import { listenSandbox } from "./server";

export type { SandboxAccountConfig, SandboxStats, SandboxState, FaultRuleInput, EditInput, AppliedEdit };
export { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "./demo-credentials";

/**
 * Test helper: a real sandbox over HTTP on 127.0.0.1, plus a client for its admin endpoint.
 * Used by the EMS client tests, e2e and the sandbox's own tests.
 */
export type SandboxAdminClient = {
  setTokenLifetime(seconds: number): Promise<void>;
  revokeAllTokens(): Promise<void>;
  /** The next `count` calls (of `paths`, default all) answer `status`, wait `delayMs`, and/or carry broken JSON. */
  injectFaults(fault: {
    count: number;
    status?: 401 | 403 | 404 | 422 | 429 | 500 | 503;
    delayMs?: number;
    malformedJson?: boolean;
    retryAfterSeconds?: number;
    /** `write`: only creates, updates and deletes (`api` includes them). */
    paths?: "token" | "api" | "write" | "all";
    /** Let this many matching calls through first (a failure at the third write: `skip: 2`). */
    skip?: number;
    /** For writes: the write is made, then its answer is lost (replaced by `status`, or late by `delayMs`). */
    afterWrite?: boolean;
    /** For a 422 on a write: the message quotes the first header value sent. */
    quoteSent?: boolean;
    /** Only calls made as this account (consumer key); every account's calls without it. */
    account?: string;
  }): Promise<void>;
  clearFaults(): Promise<void>;
  /** Shifts the server's clock: its Date header, expires_at and token expiry checks. */
  setClockOffset(seconds: number): Promise<void>;
  /** Extension: e.g. `{ credits: 20, windowSeconds: 2 }` to test waiting out a rate limit quickly. */
  setRateLimit(settings: Partial<RateLimitSettings>): Promise<void>;
  /** Extension: reproduce production quirks, e.g. `webhooks` as an object keyed by id. */
  setQuirks(quirks: Partial<SandboxQuirks>): Promise<void>;
  /** Edits an account's data (by its consumer key) as a person in the EMS web app would. */
  applyEdits(account: string, edits: EditInput[]): Promise<AppliedEdit[]>;
  /** `count` (1 to 50) edits chosen deterministically from `seed` and the account's current data. */
  applyRandomEdits(account: string, random: { count: number; seed: number }): Promise<AppliedEdit[]>;
  stats(): Promise<SandboxStats>;
  state(): Promise<SandboxState>;
  reset(): Promise<void>;
};

export type StartedSandbox = { baseUrl: string; admin: SandboxAdminClient; close(): Promise<void> };

export async function startSandboxServer(
  opts: {
    port?: number;
    accounts?: SandboxAccountConfig[];
    signingSecret?: string;
    adminSecret?: string;
    /** SandboxOptions.driftSeconds: random edits of the first account every so often (off by default). */
    driftSeconds?: number;
  } = {},
): Promise<StartedSandbox> {
  const adminSecret = opts.adminSecret ?? randomBytes(18).toString("base64url");
  const running = await listenSandbox({
    port: opts.port ?? 0,
    accounts: opts.accounts,
    signingSecret: opts.signingSecret ?? randomBytes(18).toString("base64url"),
    adminSecret,
    driftSeconds: opts.driftSeconds,
  });
  return { baseUrl: running.baseUrl, admin: createAdminClient(running.baseUrl, adminSecret), close: running.close };
}

/** Talks to `{baseUrl}/__admin/...` over HTTP; also works against the sandbox embedded in the portal. */
export function createAdminClient(baseUrl: string, adminSecret: string): SandboxAdminClient {
  const call = async <T>(method: "GET" | "POST" | "DELETE", action: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl.replace(/\/$/, "")}/__admin/${action}`, {
      method,
      headers: { [ADMIN_SECRET_HEADER]: adminSecret, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Sandbox admin ${method} ${action} failed with ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
  return {
    setTokenLifetime: async (seconds) => void (await call("POST", "token-lifetime", { seconds })),
    revokeAllTokens: async () => void (await call("POST", "revoke-tokens")),
    injectFaults: async (fault) => void (await call("POST", "faults", fault)),
    clearFaults: async () => void (await call("DELETE", "faults")),
    setClockOffset: async (seconds) => void (await call("POST", "clock", { offsetSeconds: seconds })),
    setRateLimit: async (settings) => void (await call("POST", "rate-limit", settings)),
    setQuirks: async (quirks) => void (await call("POST", "quirks", quirks)),
    applyEdits: async (account, edits) => (await call<{ applied: AppliedEdit[] }>("POST", "edits", { account, edits })).applied,
    applyRandomEdits: async (account, random) => (await call<{ applied: AppliedEdit[] }>("POST", "edits", { account, random })).applied,
    stats: async () => (await call<{ stats: SandboxStats }>("GET", "stats")).stats,
    state: async () => (await call<{ state: SandboxState }>("GET", "state")).state,
    reset: async () => void (await call("POST", "reset")),
  };
}
