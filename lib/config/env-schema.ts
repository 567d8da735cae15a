import { z } from "zod";

/**
 * The pieces lib/env.ts builds the portal's environment from, and the tooling variables that
 * scripts (scripts/, prisma.config.ts) and the test harness read. Kept apart from lib/env.ts, which
 * is server-only and holds the secrets, so that scripts run by tsx can read their own settings
 * through the same parser. README.md's configuration table lists both sets.
 */

export type EnvSource = Record<string, string | undefined>;

export function numberFrom(fallback: number, min: number, max: number, { whole = true } = {}) {
  const message = `must be a ${whole ? "whole " : ""}number from ${min} to ${max.toLocaleString("en-US")}`;
  const number = z.coerce.number({ error: message }).min(min, { error: message }).max(max, { error: message });
  return (whole ? number.int({ error: message }) : number).default(fallback);
}

export const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, { error: "must be a postgresql:// URL" });

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`EMS Portal cannot start: the environment is not valid.\n${problems.map((p) => `  - ${p}`).join("\n")}\nSee the configuration table in README.md.`);
    this.name = "EnvError";
  }
}

/** Parses the schema's variables from `source`; a blank value counts as unset. Throws EnvError. */
export function parseWith<S extends z.ZodObject>(schema: S, source: EnvSource): z.output<S> {
  const input: EnvSource = {};
  for (const name of Object.keys(schema.shape)) {
    const value = source[name];
    input[name] = value === undefined || value.trim() === "" ? undefined : value;
  }
  const result = schema.safeParse(input);
  if (!result.success) throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
  return result.data;
}

/** An accessor for some variables: parsed from process.env, again only when one of them changed. */
export function section<S extends z.ZodObject>(schema: S): (source?: EnvSource) => z.output<S> {
  const names = Object.keys(schema.shape);
  let last: { raw: (string | undefined)[]; value: z.output<S> } | undefined;
  return (source = process.env) => {
    const raw = names.map((name) => source[name]);
    if (last && raw.every((value, index) => value === last!.raw[index])) return last.value;
    const value = parseWith(schema, source);
    last = { raw, value };
    return value;
  };
}

/** Tooling: what the scripts and the test harness read, never the server. */
const toolingEnvSchema = z.object({
  EMBEDDED_DATABASE_PORT: numberFrom(54329, 1, 65535),
  EMBEDDED_DATA_DIR: z.string().default(".data/postgres"),
  SHADOW_DATABASE_URL: postgresUrl.optional(),
  TEST_DATABASE_URL: postgresUrl.optional(),
  CHROMIUM_PATH: z.string().optional(),
});

export type ToolingEnv = z.infer<typeof toolingEnvSchema>;
export const TOOLING_VARIABLES = Object.keys(toolingEnvSchema.shape) as (keyof ToolingEnv)[];

export const toolingEnv = section(toolingEnvSchema);

/** The tooling variables (scripts, test harness). Throws EnvError. */
export function parseToolingEnv(source: EnvSource): ToolingEnv {
  return parseWith(toolingEnvSchema, source);
}
