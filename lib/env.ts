import "server-only";
import { z } from "zod";
import { parseKeyRing, type KeyRing } from "@/lib/config/key-ring";
import { DEFAULT_ACCOUNTS, DEV_SIGNING_SECRET, parseAccountsJson, type SandboxAccount, type SandboxOptions } from "@/lib/sandbox/core/config";
import { numberFrom, parseWith, section, TOOLING_VARIABLES, type EnvSource } from "@/lib/config/env-schema";

export { EnvError } from "@/lib/config/env-schema";

/**
 * Every environment variable of EMS Portal, validated here and read from here only: nothing else in
 * lib/ or app/ reads process.env. `npm run dev` generates the secrets into .env.local; a missing or
 * malformed value stops the server at start-up (instrumentation.ts -> lib/startup.ts) with a message
 * naming the variable and how to make one. README.md's configuration table lists exactly these
 * variables (tests/env/readme-table.test.ts checks it).
 *
 * Each part reads its own few variables through an accessor below (`databaseEnv()`, `emsEnv()`, …),
 * parsed with the same schema and re-parsed only when one of its variables changes (tests and the
 * key-rotation script change them at run time). A blank value counts as unset.
 */

const HOW_TO_MAKE_SECRET = `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

const booleanString = z
  .enum(["true", "false", "1", "0"], { error: 'must be "true" or "false"' })
  .optional()
  .transform((value) => value === "true" || value === "1");

/** "true"/"false" when set; undefined when unset, so the caller picks a default that may depend on the host. */
const optionalBoolean = z
  .enum(["true", "false", "1", "0"], { error: 'must be "true" or "false"' })
  .optional()
  .transform((value) => (value === undefined ? undefined : value === "true" || value === "1"));

// One parser for the key ring: the one the secret box gets its ring from, so start-up refuses
// exactly what encryption would refuse later.
const keyRing = z
  .string()
  .optional()
  .superRefine((value, ctx) => {
    try {
      parseKeyRing(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message.replace(/^CREDENTIAL_ENCRYPTION_KEYS /, "") });
    }
  });

const sandboxAccounts = z
  .string()
  .optional()
  .transform((raw, ctx): SandboxAccount[] => {
    if (raw === undefined) return DEFAULT_ACCOUNTS;
    try {
      return parseAccountsJson(raw);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

const webhookGroupsPath = z
  .string()
  .refine((path) => path.startsWith("/") && !/[?#\s]/.test(path), { error: (issue) => `must be a path starting with "/" (no query); it is "${String(issue.input)}"` })
  .transform((path) => path.replace(/\/+$/, ""))
  .default("/api/v1/webhook-groups");

/**
 * EMS_WRITE_PATHS: where the EMS takes each change of the setup (docs/ems-api.md §8), as
 * `operation=path` pairs, comma-separated, each replacing the contract's default for its operation
 * (lib/ems/config.ts WRITE_OPERATIONS): `webhooks.update=/api/v1/webhooks/{id}/edit`. An update's or
 * a delete's path holds `{id}`; a create's does not.
 */
const WRITE_OPERATIONS = ["webhooks.create", "webhooks.update", "webhooks.delete", "webhook-groups.create", "webhook-groups.update", "webhook-groups.delete"] as const;
const writePaths = z
  .string()
  .optional()
  .transform((raw, context) => {
    const paths: Partial<Record<(typeof WRITE_OPERATIONS)[number], string>> = {};
    for (const entry of (raw ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const equals = entry.indexOf("=");
      const operation = entry.slice(0, Math.max(0, equals)).trim() as (typeof WRITE_OPERATIONS)[number];
      const path = entry.slice(equals + 1).trim();
      if (equals < 0 || !WRITE_OPERATIONS.includes(operation)) {
        context.addIssue({ code: "custom", message: `"${entry}" is not <operation>=<path> with one of ${WRITE_OPERATIONS.join(", ")}` });
        continue;
      }
      const needsId = !operation.endsWith(".create");
      if (!path.startsWith("/") || /[?#\s]/.test(path) || path.includes("{id}") !== needsId) {
        context.addIssue({
          code: "custom",
          message: `${operation}: "${path}" must be a path starting with "/" (no query)${needsId ? " holding {id}" : " without {id}"}`,
        });
        continue;
      }
      paths[operation] = path;
    }
    return paths;
  });

/**
 * EMS_ALLOWED_HOSTS: host names (`api.example.com`) or subdomain patterns (`*.example.com`, which
 * matches `eu.api.example.com` but not `example.com` itself), comma-separated, in the form URLs use
 * (lower case, punycode). Unset: any public host.
 */
const allowedHosts = z
  .string()
  .optional()
  .transform((raw, ctx): string[] | null => {
    if (raw === undefined) return null;
    const patterns: string[] = [];
    for (const entry of raw
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const wildcard = entry.startsWith("*.");
      const host = hostOf(wildcard ? entry.slice(2) : entry);
      if (!host || (wildcard && !host.includes("."))) {
        ctx.addIssue({
          code: "custom",
          message: `must be host names or *.domain patterns, comma-separated (e.g. api.example.com,*.swoogo.com); "${entry}" is not one`,
        });
        return z.NEVER;
      }
      patterns.push(wildcard ? `*.${host}` : host);
    }
    if (patterns.length === 0) {
      ctx.addIssue({ code: "custom", message: "lists no host; leave it unset to allow any public host" });
      return z.NEVER;
    }
    return patterns;
  });

/** A bare host name (no scheme, port, path or IPv6 literal), as a URL writes it; null when it is not one. */
function hostOf(text: string): string | null {
  if (!text || /[/:@?#\\[\]\s*]/.test(text)) return null;
  try {
    const url = new URL(`https://${text}`);
    return url.hostname.replace(/\.$/, "") || null;
  } catch {
    return null;
  }
}

/** A host name with an optional port and no scheme, as Vercel sets VERCEL_URL (`my-app-git-x.vercel.app`). */
const vercelHost = z
  .string()
  .optional()
  .refine((value) => value === undefined || hostWithPortOf(value) !== null, {
    error: (issue) => `must be a host name without a scheme, as Vercel sets it (e.g. my-app.vercel.app); it is "${String(issue.input)}"`,
  })
  .transform((value) => (value === undefined ? undefined : (hostWithPortOf(value) ?? undefined)));

/** `host` or `host:port` as a URL writes it (lower case, punycode), or null. */
function hostWithPortOf(text: string): string | null {
  if (!text || /[/@?#\\\s*]/.test(text)) return null;
  try {
    const url = new URL(`https://${text}`);
    return url.hostname ? url.host : null;
  } catch {
    return null;
  }
}

/**
 * EMS_ALLOW_PRIVATE_ORIGINS: origins (`http://127.0.0.1:4010`, `https://ems.internal:8443`) that the
 * EMS client may reach although they are on a private network or use plain HTTP; scheme, host and
 * port must then match exactly. Kept in URL origin form (default ports dropped).
 */
const privateOrigins = z
  .string()
  .optional()
  .transform((raw, ctx): string[] => {
    const origins: string[] = [];
    for (const entry of (raw ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      let url: URL | null = null;
      try {
        url = new URL(entry);
      } catch {
        url = null;
      }
      // Textually scheme://host[:port][/]: no path, query or fragment, no user name.
      if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || !/^[a-z]+:\/\/[^/?#@]+\/?$/i.test(entry)) {
        ctx.addIssue({
          code: "custom",
          message: `must be origins, comma-separated, each scheme://host:port with no path (e.g. http://127.0.0.1:4010); "${entry}" is not one`,
        });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return origins;
  });

/**
 * OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL (http or https, no query); spans go to
 * `<endpoint>/v1/traces`, as the OpenTelemetry specification says for this variable.
 */
const otlpEndpoint = z
  .string()
  .optional()
  .refine(
    (value) => {
      if (value === undefined) return true;
      try {
        const url = new URL(value);
        return /^https?:$/.test(url.protocol) && !url.search && !url.hash && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    { error: "must be an http:// or https:// URL without a query or user name, e.g. http://127.0.0.1:4318 (spans go to <endpoint>/v1/traces)" },
  )
  .transform((value) => value?.replace(/\/+$/, ""));

/**
 * OTEL_EXPORTER_OTLP_HEADERS: `name=value` pairs, comma-separated, values URL-encoded (the
 * OpenTelemetry format), sent with every export, e.g. a hosted collector's API key. Never logged.
 */
const otlpHeaders = z
  .string()
  .optional()
  .transform((raw, ctx): Record<string, string> => {
    const headers: Record<string, string> = {};
    for (const pair of (raw ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const at = pair.indexOf("=");
      const name = at > 0 ? pair.slice(0, at).trim() : "";
      let value: string | null = null;
      try {
        value = at > 0 ? decodeURIComponent(pair.slice(at + 1).trim()) : null;
      } catch {
        value = null;
      }
      if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name) || value === null) {
        // The value may be a secret: name the position, never the text.
        ctx.addIssue({
          code: "custom",
          message: `must be name=value pairs, comma-separated (e.g. x-api-key=abc123); entry ${Object.keys(headers).length + 1} is not one`,
        });
        return z.NEVER;
      }
      headers[name] = value;
    }
    return headers;
  });

const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;

/** Who may create an account without an invitation (SIGNUP_MODE; lib/auth/sign-up-policy.ts). */
export type SignUpMode = { kind: "open" } | { kind: "invite-only" } | { kind: "domain"; domains: string[] };

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

const signUpMode = z
  .string()
  .optional()
  .transform((raw, ctx): SignUpMode => {
    const value = (raw ?? "invite-only").trim().toLowerCase();
    if (value === "open" || value === "invite-only") return { kind: value };
    if (value.startsWith("domain:")) {
      const domains = [
        ...new Set(
          value
            .slice("domain:".length)
            .split(",")
            .map((domain) => domain.trim().replace(/^@/, "")),
        ),
      ].filter(Boolean);
      if (domains.length > 0 && domains.every((domain) => DOMAIN_NAME.test(domain))) return { kind: "domain", domains };
    }
    ctx.addIssue({ code: "custom", message: `must be "open", "invite-only" or "domain:" and a list of domains, e.g. domain:example.com,example.org; it is "${raw}"` });
    return z.NEVER;
  });

/** What the portal server reads. */
const serverEnvSchema = z.object({
  // The process
  NODE_ENV: z.enum(["development", "production", "test"], { error: "must be development, production or test" }).default("development"),
  PORT: numberFrom(3000, 1, 65535),
  // Database (lib/db/prisma.ts)
  DATABASE_URL: z
    .string({ error: "is missing. Set it to your PostgreSQL URL, e.g. postgresql://user:password@host:5432/ems_portal" })
    .regex(/^postgres(ql)?:\/\//, { error: "must be a postgresql:// URL" }),
  DATABASE_POOL_MAX: numberFrom(10, 1, 1000),
  // Sessions and sign-in (lib/auth)
  NEXTAUTH_SECRET: z
    .string({ error: `is missing. Make one with: ${HOW_TO_MAKE_SECRET}` })
    .min(32, { error: `must be at least 32 characters. Make one with: ${HOW_TO_MAKE_SECRET}` }),
  NEXTAUTH_URL: z.url({ error: "must be the portal's public URL, e.g. https://portal.example.com" }).optional(),
  AUTH_MAX_FAILURES_PER_ACCOUNT: numberFrom(10, 1, 1_000_000),
  AUTH_MAX_FAILURES_PER_ADDRESS: numberFrom(50, 1, 1_000_000),
  AUTH_THROTTLE_WINDOW_SECONDS: numberFrom(15 * 60, 1, 1_000_000),
  AUTH_ACCOUNT_DELAY_MAX_SECONDS: numberFrom(5 * 60, 1, 1_000_000),
  // How long a session lasts (lib/auth/session-policy.ts): it ends after this long without a page
  // view (idle), and this long after signing in whatever happens (the cookie's lifetime too).
  AUTH_SESSION_IDLE_SECONDS: numberFrom(7 * 24 * 60 * 60, 5 * 60, 365 * 24 * 60 * 60),
  AUTH_SESSION_MAX_AGE_SECONDS: numberFrom(30 * 24 * 60 * 60, 60 * 60, 365 * 24 * 60 * 60),
  // Retention (lib/retention): records older than this many days are deleted by the retention job.
  RETENTION_AUTH_ATTEMPTS_DAYS: numberFrom(30, 1, 36_500),
  RETENTION_ENDED_SESSIONS_DAYS: numberFrom(30, 1, 36_500),
  RETENTION_AUDIT_LOG_DAYS: numberFrom(365, 1, 36_500),
  RETENTION_HISTORY_DAYS: numberFrom(365, 1, 36_500),
  RETENTION_PLAN_DRAFTS_DAYS: numberFrom(30, 1, 36_500),
  // Scheduled jobs (lib/jobs): the job engine runs inside each Node server unless turned off; on
  // Vercel it never does, and Vercel Cron calls /api/cron/* with CRON_SECRET instead.
  JOBS_ENABLED: optionalBoolean,
  // How long a plan's applier holds it without a sign of life (lib/plans/apply.ts): a live applier
  // renews it every third of this, so it is also how long a killed instance delays its plan.
  PLAN_APPLY_LEASE_SECONDS: numberFrom(60, 10, 600),
  // Plans not yet approved (drafts and plans waiting for review; lib/plans/caps.ts), per person and per team
  PLANS_MAX_OPEN_PER_PERSON: numberFrom(50, 1, 1_000),
  PLANS_MAX_OPEN_PER_TEAM: numberFrom(250, 1, 10_000),
  CRON_SECRET: z
    .string()
    .min(16, { error: `must be at least 16 characters. Make one with: ${HOW_TO_MAKE_SECRET}` })
    .optional(),
  // Sensitive actions need a password (or two-factor code) this recent (lib/auth/reauth.ts)
  AUTH_REAUTH_WINDOW_SECONDS: numberFrom(10 * 60, 1, 24 * 60 * 60),
  // Sign-up (lib/auth/sign-up.ts)
  SIGNUP_MODE: signUpMode,
  SIGNUP_MAX_PER_ADDRESS: numberFrom(10, 1, 1_000_000),
  // The client's address (lib/auth/request-meta.ts): how many proxies in front of the portal append
  // to X-Forwarded-For; on Vercel (which sets VERCEL=1) its own headers are read instead.
  TRUSTED_PROXY_COUNT: numberFrom(0, 0, 20),
  VERCEL: booleanString,
  // The portal's public address on Vercel when NEXTAUTH_URL is unset (lib/portal-origin.ts): Vercel
  // sets these itself, host names without a scheme.
  VERCEL_ENV: z.enum(["production", "preview", "development"], { error: "must be production, preview or development (Vercel sets it)" }).optional(),
  VERCEL_URL: vercelHost,
  VERCEL_PROJECT_PRODUCTION_URL: vercelHost,
  // Secrets at rest (lib/crypto, lib/ems/credentials.ts)
  CREDENTIAL_ENCRYPTION_KEYS: keyRing,
  EMS_FINGERPRINT_SECRET: z
    .string()
    .min(32, { error: `must be at least 32 characters. Make one with: ${HOW_TO_MAKE_SECRET}` })
    .optional(),
  // The EMS client (lib/ems/config.ts)
  EMS_TOKEN_RENEW_BEFORE_SECONDS: numberFrom(300, 0, 1800, { whole: false }),
  EMS_TIMEOUT_MS: numberFrom(10_000, 1, 300_000),
  EMS_WEBHOOK_GROUPS_PATH: webhookGroupsPath,
  EMS_WRITE_PATHS: writePaths,
  // Where the EMS client may connect (lib/ems/destination.ts)
  EMS_ALLOWED_HOSTS: allowedHosts,
  EMS_ALLOW_PRIVATE_ORIGINS: privateOrigins,
  // Listing pages (lib/listing/load.ts): one deadline for all the EMS calls of a page render
  EMS_PAGE_BUDGET_MS: numberFrom(12_000, 1_000, 120_000),
  // The rate-limit budget (lib/ems/answer-cache.ts, lib/ems/budget.ts): identical listings of one
  // credential within this many seconds are answered once (0: every page view calls the API)
  EMS_SHARED_ANSWER_SECONDS: numberFrom(30, 0, 3_600),
  // Coverage and health checks (lib/setup/load.ts): the account's whole setup is reused this long
  EMS_COVERAGE_CACHE_SECONDS: numberFrom(60, 0, 3_600),
  // Share of each rate-limit window kept for page views: exports and other background work wait below it
  EMS_BACKGROUND_RESERVE_PERCENT: numberFrom(30, 0, 90),
  // Under this share of the window left, every member using the credential sees a notice
  EMS_LOW_BUDGET_PERCENT: numberFrom(20, 0, 100),
  // Change history (lib/history): its syncs spend at most this share of each rate-limit window
  HISTORY_SYNC_BUDGET_PERCENT: numberFrom(10, 1, 70),
  // Export (app/api/export)
  EXPORT_MAX_ROWS: numberFrom(10_000, 1, 1_000_000),
  EXPORT_MAX_SECONDS: numberFrom(300, 10, 3_600),
  EXPORT_MAX_CONCURRENT: numberFrom(2, 1, 100),
  // Saved views (lib/views/caps.ts): how many one person may own (personal and shared together), and
  // how many a team may share
  VIEWS_MAX_PER_PERSON: numberFrom(100, 1, 10_000),
  VIEWS_MAX_PER_TEAM: numberFrom(500, 1, 100_000),
  // Invitation mail (lib/mail)
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@host:587" }).optional(),
  SMTP_FROM: z.string().default("EMS Portal <no-reply@localhost>"),
  // The sandbox (app/sandbox, and `npm run sandbox`)
  SANDBOX_ENABLED: booleanString,
  SANDBOX_ACCOUNTS: sandboxAccounts,
  SANDBOX_SIGNING_SECRET: z.string().optional(),
  SANDBOX_ADMIN_SECRET: z.string().optional(),
  SANDBOX_PORT: numberFrom(4010, 0, 65535),
  SANDBOX_HOST: z.string().default("127.0.0.1"),
  // Demo drift: random edits of the first sandbox account every this many seconds (0: off)
  SANDBOX_DRIFT_SECONDS: numberFrom(0, 0, 86_400),
  // Traces (lib/telemetry/tracing.ts): exported over OTLP/HTTP (JSON) only when the endpoint is set
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
  OTEL_EXPORTER_OTLP_HEADERS: otlpHeaders,
  OTEL_SERVICE_NAME: z.string().max(200, { error: "must be at most 200 characters" }).default("ems-portal"),
  // Metrics (app/api/metrics): the bearer token a Prometheus scraper sends; unset, the route answers 404
  METRICS_TOKEN: z
    .string()
    .min(16, { error: `must be at least 16 characters. Make one with: ${HOW_TO_MAKE_SECRET}` })
    .optional(),
  // Logging (lib/log.ts reads these through logSettings(), leniently; here they are checked)
  LOG_LEVEL: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
    z.enum(LOG_LEVELS, { error: "must be debug, info, warn, error or silent" }).optional(),
  ),
  LOG_FORMAT: z.enum(["json", "pretty"], { error: "must be json or pretty" }).optional(),
});

export type ServerEnv = z.infer<typeof serverEnvSchema>;

/**
 * A production server that serves the sandbox signs its tokens with SANDBOX_SIGNING_SECRET; the
 * development default is public (it is in this repository), so anyone could forge a sandbox token
 * with it: such a server does not start.
 */
function sandboxSecretRule(
  env: Pick<ServerEnv, "NODE_ENV" | "SANDBOX_ENABLED" | "SANDBOX_SIGNING_SECRET">,
  ctx: { addIssue: (issue: { code: "custom"; path: string[]; message: string }) => void },
): void {
  if (env.NODE_ENV !== "production" || !env.SANDBOX_ENABLED) return;
  const secret = env.SANDBOX_SIGNING_SECRET;
  const problem =
    secret === undefined
      ? "is missing"
      : secret === DEV_SIGNING_SECRET
        ? "is the public development default"
        : secret.length < 32
          ? "must be at least 32 characters"
          : null;
  if (problem) {
    ctx.addIssue({
      code: "custom",
      path: ["SANDBOX_SIGNING_SECRET"],
      message: `${problem}: a production server with SANDBOX_ENABLED=true needs a secret of its own. Make one with: ${HOW_TO_MAKE_SECRET}`,
    });
  }
}

const checkedServerEnvSchema = serverEnvSchema.superRefine(sandboxSecretRule);

/** The names of the variables, for the README check and for scripts that pass the environment on. */
export const SERVER_VARIABLES = Object.keys(serverEnvSchema.shape) as (keyof ServerEnv)[];
export { TOOLING_VARIABLES };

/** Every server variable at once, with every problem (start-up, tests). Throws EnvError. */
export function parseServerEnv(source: EnvSource): ServerEnv {
  return parseWith(checkedServerEnvSchema, source);
}

/** The validated environment of this server process. */
export const serverEnv = section(checkedServerEnvSchema);

export const runtimeEnv = section(serverEnvSchema.pick({ NODE_ENV: true, PORT: true }));
export const databaseEnv = section(serverEnvSchema.pick({ DATABASE_URL: true, DATABASE_POOL_MAX: true }));
export const authEnv = section(
  serverEnvSchema.pick({
    NEXTAUTH_SECRET: true,
    NEXTAUTH_URL: true,
    AUTH_MAX_FAILURES_PER_ACCOUNT: true,
    AUTH_MAX_FAILURES_PER_ADDRESS: true,
    AUTH_THROTTLE_WINDOW_SECONDS: true,
    AUTH_ACCOUNT_DELAY_MAX_SECONDS: true,
  }),
);
/** How long sessions last (lib/auth/session-policy.ts). */
export const sessionEnv = section(serverEnvSchema.pick({ AUTH_SESSION_IDLE_SECONDS: true, AUTH_SESSION_MAX_AGE_SECONDS: true }));
/** The retention job's ages (lib/retention/prune.ts), with the session policy that says when a session ended. */
export const retentionEnv = section(
  serverEnvSchema.pick({
    RETENTION_AUTH_ATTEMPTS_DAYS: true,
    RETENTION_ENDED_SESSIONS_DAYS: true,
    RETENTION_AUDIT_LOG_DAYS: true,
    RETENTION_HISTORY_DAYS: true,
    RETENTION_PLAN_DRAFTS_DAYS: true,
    AUTH_SESSION_IDLE_SECONDS: true,
    AUTH_SESSION_MAX_AGE_SECONDS: true,
    AUTH_THROTTLE_WINDOW_SECONDS: true,
  }),
);
/** The job engine (lib/jobs) and the cron routes (app/api/cron). */
export const jobsEnv = section(serverEnvSchema.pick({ JOBS_ENABLED: true, CRON_SECRET: true, VERCEL: true, NODE_ENV: true }));
/** lib/plans/apply.ts: how long a plan's applier holds it between signs of life. */
export const plansEnv = section(serverEnvSchema.pick({ PLAN_APPLY_LEASE_SECONDS: true, PLANS_MAX_OPEN_PER_PERSON: true, PLANS_MAX_OPEN_PER_TEAM: true }));
/** lib/auth/reauth.ts: how recent a sensitive action needs the session's last proof of identity. */
export const reauthEnv = section(serverEnvSchema.pick({ AUTH_REAUTH_WINDOW_SECONDS: true }));
export const signUpEnv = section(serverEnvSchema.pick({ SIGNUP_MODE: true, SIGNUP_MAX_PER_ADDRESS: true, AUTH_THROTTLE_WINDOW_SECONDS: true }));
export const clientAddressEnv = section(serverEnvSchema.pick({ TRUSTED_PROXY_COUNT: true, VERCEL: true }));
export const emsEnv = section(
  serverEnvSchema.pick({
    EMS_TOKEN_RENEW_BEFORE_SECONDS: true,
    EMS_TIMEOUT_MS: true,
    EMS_WEBHOOK_GROUPS_PATH: true,
    EMS_WRITE_PATHS: true,
    EMS_SHARED_ANSWER_SECONDS: true,
    EMS_COVERAGE_CACHE_SECONDS: true,
    EMS_BACKGROUND_RESERVE_PERCENT: true,
    EMS_LOW_BUDGET_PERCENT: true,
  }),
);
/** The destination policy's variables (lib/ems/destination.ts): with PORT, the portal's loopback origins (its public one: portalOriginEnv). */
export const destinationEnv = section(serverEnvSchema.pick({ EMS_ALLOWED_HOSTS: true, EMS_ALLOW_PRIVATE_ORIGINS: true, PORT: true }));
export const listingEnv = section(serverEnvSchema.pick({ EMS_PAGE_BUDGET_MS: true }));
export const historyEnv = section(serverEnvSchema.pick({ HISTORY_SYNC_BUDGET_PERCENT: true }));
/** lib/portal-origin.ts: where the portal answers, for links sent out of it and its own sandbox. */
export const portalOriginEnv = section(
  serverEnvSchema.pick({ NODE_ENV: true, PORT: true, NEXTAUTH_URL: true, VERCEL_ENV: true, VERCEL_URL: true, VERCEL_PROJECT_PRODUCTION_URL: true }),
);
export const exportEnv = section(serverEnvSchema.pick({ EXPORT_MAX_ROWS: true, EXPORT_MAX_SECONDS: true, EXPORT_MAX_CONCURRENT: true }));
/** lib/views/caps.ts: the most views one person owns, and the most one team shares. */
export const viewsEnv = section(serverEnvSchema.pick({ VIEWS_MAX_PER_PERSON: true, VIEWS_MAX_PER_TEAM: true }));
/** proxy.ts: development (a looser policy for React's dev tools) and HTTPS (HSTS). */
export const securityHeadersEnv = section(serverEnvSchema.pick({ NODE_ENV: true, NEXTAUTH_URL: true }));
/** lib/telemetry/tracing.ts: where spans go (none without an endpoint). */
export const tracingEnv = section(serverEnvSchema.pick({ OTEL_EXPORTER_OTLP_ENDPOINT: true, OTEL_EXPORTER_OTLP_HEADERS: true, OTEL_SERVICE_NAME: true }));
/** app/api/metrics: the scraper's bearer token (unset: no metrics route). */
export const metricsEnv = section(serverEnvSchema.pick({ METRICS_TOKEN: true }));
export const mailEnv = section(serverEnvSchema.pick({ SMTP_URL: true, SMTP_FROM: true }));
export type MailEnv = ReturnType<typeof mailEnv>;

const fingerprintEnv = section(serverEnvSchema.pick({ EMS_FINGERPRINT_SECRET: true }));
const nextAuthSecretEnv = section(serverEnvSchema.pick({ NEXTAUTH_SECRET: true }));

/** The key of credential fingerprints: EMS_FINGERPRINT_SECRET, else NEXTAUTH_SECRET. */
export function fingerprintSecret(source: EnvSource = process.env): string {
  return fingerprintEnv(source).EMS_FINGERPRINT_SECRET ?? nextAuthSecretEnv(source).NEXTAUTH_SECRET;
}

let keyRingCache: { source: string | undefined; ring: KeyRing } | undefined;

/**
 * The secret box's key ring from CREDENTIAL_ENCRYPTION_KEYS; throws KeyConfigurationError (which
 * names the variable and how to make a key), the error the rotation script reports.
 */
export function credentialKeyRing(source: EnvSource = process.env): KeyRing {
  const raw = source.CREDENTIAL_ENCRYPTION_KEYS;
  if (!keyRingCache || keyRingCache.source !== raw) keyRingCache = { source: raw, ring: parseKeyRing(raw) };
  return keyRingCache.ring;
}

const sandboxEnv = section(
  serverEnvSchema
    .pick({
      NODE_ENV: true,
      SANDBOX_ENABLED: true,
      SANDBOX_ACCOUNTS: true,
      SANDBOX_SIGNING_SECRET: true,
      SANDBOX_ADMIN_SECRET: true,
      SANDBOX_PORT: true,
      SANDBOX_HOST: true,
      SANDBOX_DRIFT_SECONDS: true,
    })
    .superRefine(sandboxSecretRule),
);

export interface SandboxSettings {
  /**
   * Served at /sandbox: always outside production, in production only with SANDBOX_ENABLED=true
   * (and then only with a SANDBOX_SIGNING_SECRET of its own, or the settings do not parse).
   */
  enabled: boolean;
  options: Required<Pick<SandboxOptions, "accounts" | "driftSeconds">> & Pick<SandboxOptions, "signingSecret" | "adminSecret">;
  /** Where `npm run sandbox` listens. */
  port: number;
  host: string;
}

/** The sandbox's configuration, handed to lib/sandbox as parameters (it never reads the environment). */
export function sandboxSettings(source: EnvSource = process.env): SandboxSettings {
  const env = sandboxEnv(source);
  return {
    enabled: env.NODE_ENV !== "production" || env.SANDBOX_ENABLED,
    options: {
      accounts: env.SANDBOX_ACCOUNTS,
      signingSecret: env.SANDBOX_SIGNING_SECRET,
      adminSecret: env.SANDBOX_ADMIN_SECRET,
      driftSeconds: env.SANDBOX_DRIFT_SECONDS,
    },
    port: env.SANDBOX_PORT,
    host: env.SANDBOX_HOST,
  };
}

/**
 * The logger's settings. Read on their own and leniently (not through a section), so that scripts
 * and tests without a full environment still log; an unknown LOG_LEVEL falls back to info, and the
 * start-up check (parseServerEnv) reports it.
 */
export function logSettings(source: EnvSource = process.env): { level: (typeof LOG_LEVELS)[number]; pretty: boolean } {
  const raw = source.LOG_LEVEL?.trim().toLowerCase();
  const level = (LOG_LEVELS as readonly string[]).includes(raw ?? "") ? (raw as (typeof LOG_LEVELS)[number]) : source.NODE_ENV === "test" ? "silent" : "info";
  return { level, pretty: source.LOG_FORMAT ? source.LOG_FORMAT === "pretty" : source.NODE_ENV === "development" };
}
