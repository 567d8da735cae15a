/** Shared by playwright.config.ts, the e2e server and the specs. */
export const E2E_PORT = Number(process.env.E2E_PORT || 3100);
// 127.0.0.1, not localhost: the server binds the IPv4 loopback, and localhost may resolve to ::1 first.
export const E2E_BASE_URL = process.env.E2E_BASE_URL || `http://127.0.0.1:${E2E_PORT}`;
export const E2E_SANDBOX_ADMIN_SECRET = process.env.E2E_SANDBOX_ADMIN_SECRET || "e2e-sandbox-admin-secret-0123456789";
/**
 * A second, standalone sandbox that only the fault specs use (e2e/faults.spec.ts): what they do to
 * it (short token lifetimes, a tiny rate limit) never reaches the other workers' tests.
 */
export const E2E_FAULT_SANDBOX_PORT = Number(process.env.E2E_FAULT_SANDBOX_PORT || E2E_PORT + 1);
export const E2E_FAULT_SANDBOX_URL = `http://127.0.0.1:${E2E_FAULT_SANDBOX_PORT}`;

/**
 * A third sandbox, for the specs that change the EMS (e2e/plans.spec.ts): each test writes to an
 * account of its own (PLANS_ACCOUNTS), so no write reaches the demo account the listing specs read.
 */
export const E2E_PLANS_SANDBOX_PORT = Number(process.env.E2E_PLANS_SANDBOX_PORT || E2E_PORT + 4);
export const E2E_PLANS_SANDBOX_URL = `http://127.0.0.1:${E2E_PLANS_SANDBOX_PORT}`;
export const PLANS_ACCOUNTS = Array.from({ length: 6 }, (_, index) => ({
  key: `plans_${index + 1}`,
  secret: `plans-secret-${index + 1}`,
  groups: 12,
  events: 6,
  seed: 40 + index,
}));
/**
 * An account large enough for a plan of more than 1,000 operations (e2e/plans-large.spec.ts): the
 * generated data holds about 3.9 webhooks a group, so 300 groups hold 1,158 webhooks, 1,076 enabled.
 */
export const PLANS_LARGE_ACCOUNT = { key: "plans_large", secret: "plans-secret-large", groups: 300, events: 6, seed: 46 };
/** An account whose writes a test slows down (a fault scoped to it) to watch a plan's live progress. */
export const PLANS_PROGRESS_ACCOUNT = { key: "plans_progress", secret: "plans-secret-progress", groups: 12, events: 6, seed: 47 };
/** An account whose applied plan a person changes back in the EMS (e2e/drift.spec.ts, issue 37 §3). */
export const PLANS_DRIFT_ACCOUNT = { key: "plans_drift", secret: "plans-secret-drift", groups: 12, events: 6, seed: 48 };
/** An account of its own for the inbox's spec (e2e/inbox.spec.ts): a plan applied and undone. */
export const PLANS_INBOX_ACCOUNT = { key: "plans_inbox", secret: "plans-secret-inbox", groups: 12, events: 6, seed: 49 };
/**
 * The account of e2e/fixes.spec.ts: a drafted fix of its own is applied to it. Large enough that a
 * live event misses a trigger one webhook could serve (the spec finds which from its data).
 */
export const PLANS_FIXES_ACCOUNT = { key: "plans_fixes", secret: "plans-secret-fixes", groups: 24, events: 12, seed: 62 };
/** Every account the plans sandbox serves. */
export const PLANS_SANDBOX_ACCOUNTS = [...PLANS_ACCOUNTS, PLANS_LARGE_ACCOUNT, PLANS_PROGRESS_ACCOUNT, PLANS_DRIFT_ACCOUNT, PLANS_FIXES_ACCOUNT, PLANS_INBOX_ACCOUNT];

/** Signed-in browser states made once by e2e/roles.setup.ts and reused by the specs. */
export const ROLE_STATE = {
  /** An owner of a team of their own, with the sandbox's demo credentials saved: for read-only listing specs. */
  lister: "e2e/.auth/lister.json",
} as const;

/**
 * Where the e2e server writes its throw-away database's URL, for the few specs that move time on
 * the server by editing their own rows (e2e/two-factor.spec.ts ages a session past the
 * re-authentication window instead of waiting ten minutes). Nothing else reads it.
 */
export const E2E_DATABASE_URL_FILE = "e2e/.auth/database-url";

/**
 * Ports for the servers e2e/readme-dev.spec.ts starts with `npm run dev` (the portal and its embedded
 * PostgreSQL): the first free ones of this range, `first-last`. Apart from the suite's own ports above.
 */
export const E2E_DEV_PORTS = portRange(process.env.E2E_DEV_PORTS || "3300-3349");

function portRange(text: string): { first: number; last: number } {
  const [first, last] = text.split("-").map(Number);
  if (!Number.isInteger(first) || !Number.isInteger(last) || first! < 1 || last! > 65535 || first! > last!)
    throw new Error(`E2E_DEV_PORTS must be first-last, e.g. 3300-3349 (got "${text}")`);
  return { first: first!, last: last! };
}
