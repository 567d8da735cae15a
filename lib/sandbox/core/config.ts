import { z } from "zod";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "../demo-credentials";

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

/** Reads SANDBOX_ACCOUNTS (a JSON array) with a clear message when it is not valid. */
export function accountsFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxAccount[] {
  const raw = env.SANDBOX_ACCOUNTS?.trim();
  if (!raw) return DEFAULT_ACCOUNTS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error("SANDBOX_ACCOUNTS is not valid JSON: expected an array of { key, secret, groups, events, seed }.");
  }
  const result = z.array(sandboxAccountConfigSchema).min(1).safeParse(parsed);
  if (!result.success) {
    throw new Error(`SANDBOX_ACCOUNTS is invalid: ${z.prettifyError(result.error)}`);
  }
  return parseAccounts(result.data);
}

export type SandboxOptions = {
  accounts?: readonly SandboxAccountConfig[];
  signingSecret?: string;
  /** When absent, the admin endpoint answers 404: faults are never reachable without a secret. */
  adminSecret?: string;
};

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): Required<Pick<SandboxOptions, "accounts" | "signingSecret">> & SandboxOptions {
  return {
    accounts: accountsFromEnv(env),
    signingSecret: env.SANDBOX_SIGNING_SECRET || DEV_SIGNING_SECRET,
    adminSecret: env.SANDBOX_ADMIN_SECRET || undefined,
  };
}
