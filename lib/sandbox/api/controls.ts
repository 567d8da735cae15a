import type { FaultRule } from "../core/faults";
import type { RateLimitSettings } from "../core/rate-limiter";
import type { SandboxStats } from "../core/stats";

/** Production quirks the sandbox can reproduce on demand, so clients are tested against them. */
export type SandboxQuirks = {
  /** Send `webhooks` as an object keyed by webhook id (the seed types it "object") instead of an array. */
  webhooksAsObject: boolean;
};

export type SandboxState = {
  tokenLifetimeSeconds: number;
  clockOffsetSeconds: number;
  pendingFaults: number;
  rateLimit: RateLimitSettings;
  quirks: SandboxQuirks;
};

/** What the admin endpoint may change; implemented by the Sandbox. */
export interface SandboxControls {
  setTokenLifetime(seconds: number): void;
  revokeAllTokens(): void;
  injectFaults(rule: FaultRule): void;
  clearFaults(): void;
  setClockOffset(seconds: number): void;
  setRateLimit(settings: Partial<RateLimitSettings>): void;
  setQuirks(quirks: Partial<SandboxQuirks>): void;
  stats(): SandboxStats;
  state(): SandboxState;
  reset(): void;
}
