import type { FaultRule } from "../core/faults";
import type { RateLimitSettings } from "../core/rate-limiter";
import type { SandboxStats } from "../core/stats";
import type { AppliedEdit } from "../data/edits";
import type { Edit } from "./edit-schema";

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
  /** accounts whose data was edited (POST edits, or drift) since the start or the last reset */
  editedAccounts: string[];
  /** SandboxOptions.driftSeconds; 0 when off */
  driftSeconds: number;
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
  /** Edits the account's data as a person in the EMS web app would; throws EditRejected (data/edits.ts) for bad input. */
  applyEdits(accountKey: string, edits: readonly Edit[]): AppliedEdit[];
  /** `count` edits chosen deterministically from `seed` and the account's current data. */
  applyRandomEdits(accountKey: string, options: { count: number; seed: number }): AppliedEdit[];
  stats(): SandboxStats;
  state(): SandboxState;
  reset(): void;
}
