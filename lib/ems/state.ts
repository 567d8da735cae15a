import "server-only";

/** A token held in this process's memory. */
export interface CachedToken {
  value: string;
  /** Epoch ms on this machine's clock, skew-corrected (lib/ems/expiry.ts). */
  expiresAt: number;
  obtainedAt: number;
  /** The ciphertext stored in EmsTokenCache for it: lets a 401 clear exactly this token there. */
  ciphertext: string | null;
}

interface RateLimitWriter {
  lastWriteAt: number;
  timer: ReturnType<typeof setTimeout> | null;
  dirty: boolean;
  /** The write under way: the next one waits for it (lib/ems/rate-limit.ts says why). */
  inFlight?: Promise<void>;
}

interface PendingUsage {
  teamId: string;
  fingerprint: string;
  kind: string;
  minute: Date;
  calls: number;
  credits: number;
}

interface EmsProcessState {
  tokens: Map<string, CachedToken>;
  /** One shared token request per credential (single flight). */
  inflight: Map<string, Promise<CachedToken>>;
  /** Whether EmsTokenCache marks the credential failing, as far as this process knows. */
  failing: Map<string, boolean>;
  rateLimits: Map<string, { limit: number; remaining: number; resetAt: Date; observedAt: number }>;
  rateLimitWriters: Map<string, RateLimitWriter>;
  pendingWrites: Set<Promise<void>>;
  /** Credits spent per team, credential, kind and minute, not yet written (lib/ems/budget.ts). */
  usage: { pending: Map<string, PendingUsage>; timer: ReturnType<typeof setTimeout> | null };
  /** One shared listing call per team, credential and query in this process (lib/ems/answer-cache.ts). */
  answerFlights: Map<string, Promise<unknown>>;
}

const holder = globalThis as unknown as { __emsClientState?: EmsProcessState };

/**
 * The EMS client's per-process state, on globalThis so that Next's dev server (which may load a
 * module twice) still has exactly one token cache and one single-flight map per process.
 */
const state: EmsProcessState = (holder.__emsClientState ??= {
  tokens: new Map(),
  inflight: new Map(),
  failing: new Map(),
  rateLimits: new Map(),
  rateLimitWriters: new Map(),
  pendingWrites: new Set(),
  usage: { pending: new Map(), timer: null },
  answerFlights: new Map(),
});
// A dev server that kept the state of an earlier version of this module gets the newer fields.
state.usage ??= { pending: new Map(), timer: null };
state.answerFlights ??= new Map();
export const ems: EmsProcessState = state;
