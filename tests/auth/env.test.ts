import { describe, expect, it } from "vitest";
import { EnvError, parseServerEnv } from "@/lib/env";

const valid = {
  NODE_ENV: "production",
  DATABASE_URL: "postgresql://u:p@db.example.com:5432/ems",
  NEXTAUTH_SECRET: "x".repeat(43),
  CREDENTIAL_ENCRYPTION_KEYS: `k2:${Buffer.alloc(32, 1).toString("base64")},k1:${Buffer.alloc(32, 2).toString("base64")}`,
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseServerEnv(env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
}

describe("server environment", () => {
  it("accepts a complete production environment", () => {
    const env = parseServerEnv(valid);
    expect(env.AUTH_MAX_FAILURES_PER_ACCOUNT).toBe(10);
  });

  it("names a missing secret and says how to make one", () => {
    const [problem] = problemsOf({ ...valid, NEXTAUTH_SECRET: undefined });
    expect(problem).toMatch(/^NEXTAUTH_SECRET is missing\. Make one with: node -e/);
  });

  it("refuses a malformed key ring", () => {
    const [problem] = problemsOf({ ...valid, CREDENTIAL_ENCRYPTION_KEYS: "k1:dG9vLXNob3J0" });
    expect(problem).toMatch(/^CREDENTIAL_ENCRYPTION_KEYS .*32.*Make a key with: node -e/);
  });

  it("names a missing key ring", () => {
    const [problem] = problemsOf({ ...valid, CREDENTIAL_ENCRYPTION_KEYS: undefined });
    expect(problem).toMatch(/^CREDENTIAL_ENCRYPTION_KEYS is not set/);
  });

  it("refuses a database URL that is not PostgreSQL", () => {
    expect(problemsOf({ ...valid, DATABASE_URL: "mysql://x" })).toEqual(["DATABASE_URL must be a postgresql:// URL"]);
  });

});
