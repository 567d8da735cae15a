import { z } from "zod";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "../demo-credentials";
import type { SandboxLogger } from "./log";

/** One sandbox account: its credential and the size and seed of its generated data. */
export const sandboxAccountConfigSchema = z.object({
  key: z.string().min(1),
  secret: z.string().min(1),
  groups: z.number().int().min(0).max(1_000_000).default(140),
  events: z.number().int().min(0).max(1_000_000).default(60),
  seed: z.number().int().default(1),
});
export type SandboxAccountConfig = z.input<typeof sandboxAccountConfigSchema>;
export type SandboxAccount = z.output<typeof sandboxAccountConfigSchema>;

export const DEFAULT_ACCOUNTS: SandboxAccount[] = [
  { key: DEMO_CREDENTIALS.consumerKey, secret: DEMO_CREDENTIALS.consumerSecret, groups: 140, events: 60, seed: 20261121 },
  { key: OTHER_CREDENTIALS.consumerKey, secret: OTHER_CREDENTIALS.consumerSecret, groups: 45, events: 12, seed: 777 },
];

/** Used when SANDBOX_SIGNING_SECRET is unset; fine for fake data, but set a real one in shared deployments. */
export const DEV_SIGNING_SECRET = "ems-sandbox-dev-signing-secret-not-for-production";

export function parseAccounts(input: readonly SandboxAccountConfig[]): SandboxAccount[] {
  const accounts = z.array(sandboxAccountConfigSchema).min(1).parse(input);
  const keys = new Set<string>();
  for (const account of accounts) {
    if (keys.has(account.key)) throw new Error(`Sandbox account key "${account.key}" is listed twice.`);
    keys.add(account.key);
  }
  return accounts;
}

/**
 * Reads the JSON of SANDBOX_ACCOUNTS (an array of { key, secret, groups?, events?, seed? }); the
 * error's message completes "SANDBOX_ACCOUNTS …" and says what is wrong. The sandbox never reads the environment itself: lib/env.ts (in
 * the portal) and the standalone script hand it the variable's value.
 */
export function parseAccountsJson(raw: string): SandboxAccount[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error("is not valid JSON: expected an array of { key, secret, groups, events, seed }.");
  }
  const result = z.array(sandboxAccountConfigSchema).min(1).safeParse(parsed);
  if (!result.success) throw new Error(`is invalid: ${z.prettifyError(result.error)}`);
  try {
    return parseAccounts(result.data);
  } catch (error) {
    throw new Error(`is invalid: ${(error as Error).message}`);
  }
}

export type SandboxOptions = {
  accounts?: readonly SandboxAccountConfig[];
  /** Signs the bearer tokens; DEV_SIGNING_SECRET when absent. */
  signingSecret?: string;
  /** When absent, the admin endpoint answers 404: faults are never reachable without a secret. */
  adminSecret?: string;
  /** Where unexpected errors are reported; the portal passes its logger (lib/log.ts). */
  logger?: SandboxLogger;
  /**
   * For demos: every this many seconds, 1 to 3 seeded random edits of the first account, as if
   * someone were editing it in the EMS web app. 0 or absent: off.
   */
  driftSeconds?: number;
};
