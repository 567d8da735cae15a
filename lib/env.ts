import "server-only";
import { z } from "zod";
import { parseKeyRing } from "@/lib/crypto/secret-box";

/**
 * Every environment variable the portal server reads, validated once. `npm run dev` generates the
 * secrets into .env.local; in production a missing or malformed value stops the server at start-up
 * (instrumentation.ts) with a message naming the variable and how to make one.
 */
const HOW_TO_MAKE_SECRET = `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

// One parser for the key ring: the one the secret box itself uses, so start-up refuses exactly what
// encryption would refuse later.
const keyRing = z.string().optional().superRefine((value, ctx) => {
  try {
    parseKeyRing(value);
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^CREDENTIAL_ENCRYPTION_KEYS /, "") : String(error);
    ctx.addIssue({ code: "custom", message });
  }
});

const booleanString = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const serverEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string({ error: "is missing. Set it to your PostgreSQL URL, e.g. postgresql://user:password@host:5432/ems_portal" })
    .regex(/^postgres(ql)?:\/\//, { error: "must be a postgresql:// URL" }),
  NEXTAUTH_SECRET: z
    .string({ error: `is missing. Make one with: ${HOW_TO_MAKE_SECRET}` })
    .min(32, { error: `must be at least 32 characters. Make one with: ${HOW_TO_MAKE_SECRET}` }),
  NEXTAUTH_URL: z.url({ error: "must be the portal's public URL, e.g. https://portal.example.com" }).optional(),
  CREDENTIAL_ENCRYPTION_KEYS: keyRing,
  EMS_FINGERPRINT_SECRET: z.string().min(32, { error: `must be at least 32 characters. Make one with: ${HOW_TO_MAKE_SECRET}` }).optional(),
  SANDBOX_ENABLED: booleanString,
  AUTH_MAX_FAILURES_PER_ACCOUNT: positiveInt(10),
  AUTH_MAX_FAILURES_PER_ADDRESS: positiveInt(10),
  AUTH_THROTTLE_WINDOW_SECONDS: positiveInt(15 * 60),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"], { error: "must be debug, info, warn, error or silent" }).optional(),
  LOG_FORMAT: z.enum(["json", "pretty"], { error: "must be json or pretty" }).optional(),
});

export type ServerEnv = z.infer<typeof serverEnvSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`EMS Portal cannot start: the environment is not valid.\n${problems.map((p) => `  - ${p}`).join("\n")}\nSee the configuration table in README.md.`);
    this.name = "EnvError";
  }
}

export function parseServerEnv(source: Record<string, string | undefined>): ServerEnv {
  const result = serverEnvSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
  }
  return result.data;
}

let cached: ServerEnv | undefined;

/** The validated environment of this server process. */
export function serverEnv(): ServerEnv {
  cached ??= parseServerEnv(process.env);
  return cached;
}


const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;

/**
 * The logger's settings. Read on their own (not through serverEnv()), so that scripts and tests
 * without a full environment still log; an unknown LOG_LEVEL falls back to info, and the
 * start-up check (serverEnv) reports it.
 */
export function logSettings(source: Record<string, string | undefined> = process.env): { level: (typeof LOG_LEVELS)[number]; pretty: boolean } {
  const raw = source.LOG_LEVEL?.trim().toLowerCase();
  const level = (LOG_LEVELS as readonly string[]).includes(raw ?? "") ? (raw as (typeof LOG_LEVELS)[number]) : source.NODE_ENV === "test" ? "silent" : "info";
  return { level, pretty: source.LOG_FORMAT ? source.LOG_FORMAT === "pretty" : source.NODE_ENV === "development" };
}
