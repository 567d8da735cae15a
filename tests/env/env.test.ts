import { describe, expect, it } from "vitest";
import { EnvError, exportEnv, emsEnv, fingerprintSecret, listingEnv, mailEnv, parseServerEnv, sandboxSettings, securityHeadersEnv } from "@/lib/env";
import { DEV_SIGNING_SECRET } from "@/lib/sandbox/core/config";
import { parseToolingEnv } from "@/lib/config/env-schema";

const valid = {
  NODE_ENV: "production",
  DATABASE_URL: "postgresql://u:p@db.example.com:5432/ems",
  NEXTAUTH_SECRET: "x".repeat(43),
  CREDENTIAL_ENCRYPTION_KEYS: `k2:${Buffer.alloc(32, 1).toString("base64")},k1:${Buffer.alloc(32, 2).toString("base64")}`,
};

function problemsOf(parse: () => unknown): string[] {
  try {
    parse();
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
}

describe("server environment", () => {
  it("accepts a complete production environment, with the documented defaults", () => {
    const env = parseServerEnv(valid);
    expect(env.AUTH_MAX_FAILURES_PER_ACCOUNT).toBe(10);
    expect(env.DATABASE_POOL_MAX).toBe(10);
    expect(env.PORT).toBe(3000);
  });

  it("names a missing secret and says how to make one", () => {
    const [problem] = problemsOf(() => parseServerEnv({ ...valid, NEXTAUTH_SECRET: undefined }));
    expect(problem).toMatch(/^NEXTAUTH_SECRET is missing\. Make one with: node -e/);
  });

  it("treats a blank value as unset", () => {
    const [problem] = problemsOf(() => parseServerEnv({ ...valid, NEXTAUTH_SECRET: "  " }));
    expect(problem).toMatch(/^NEXTAUTH_SECRET is missing/);
    expect(parseServerEnv({ ...valid, EXPORT_MAX_ROWS: "" }).EXPORT_MAX_ROWS).toBe(10_000);
  });

  it("refuses a malformed key ring", () => {
    const [problem] = problemsOf(() => parseServerEnv({ ...valid, CREDENTIAL_ENCRYPTION_KEYS: "k1:dG9vLXNob3J0" }));
    expect(problem).toMatch(/^CREDENTIAL_ENCRYPTION_KEYS .*32.*Make a key with: node -e/);
  });

  it("names a missing key ring", () => {
    const [problem] = problemsOf(() => parseServerEnv({ ...valid, CREDENTIAL_ENCRYPTION_KEYS: undefined }));
    expect(problem).toMatch(/^CREDENTIAL_ENCRYPTION_KEYS is not set/);
  });

  it("refuses a database URL that is not PostgreSQL", () => {
    expect(problemsOf(() => parseServerEnv({ ...valid, DATABASE_URL: "mysql://x" }))).toEqual(["DATABASE_URL must be a postgresql:// URL"]);
  });

  it("reports every bad variable at once, each by name", () => {
    const problems = problemsOf(() =>
      parseServerEnv({ ...valid, EMS_TIMEOUT_MS: "soon", EXPORT_MAX_ROWS: "0", SMTP_URL: "https://mail.example.com", LOG_LEVEL: "loud", SANDBOX_ACCOUNTS: "[{}" }),
    );
    expect(problems.map((problem) => problem.split(" ")[0]).sort()).toEqual(["EMS_TIMEOUT_MS", "EXPORT_MAX_ROWS", "LOG_LEVEL", "SANDBOX_ACCOUNTS", "SMTP_URL"]);
    expect(problems.find((problem) => problem.startsWith("EXPORT_MAX_ROWS"))).toBe("EXPORT_MAX_ROWS must be a whole number from 1 to 1,000,000");
  });
});

describe("where the EMS client may connect", () => {
  it("takes host names and *.domain patterns in EMS_ALLOWED_HOSTS, and says what else is wrong", () => {
    expect(parseServerEnv({ ...valid, EMS_ALLOWED_HOSTS: " api.swoogo.com ,*.Swoogo.com, bücher.example " }).EMS_ALLOWED_HOSTS).toEqual([
      "api.swoogo.com",
      "*.swoogo.com",
      "xn--bcher-kva.example",
    ]);
    expect(parseServerEnv(valid).EMS_ALLOWED_HOSTS).toBeNull();
    for (const bad of ["https://api.swoogo.com", "api.swoogo.com:443", "*.com", "api.*.com", "api.swoogo.com/path", ","]) {
      expect(problemsOf(() => parseServerEnv({ ...valid, EMS_ALLOWED_HOSTS: bad }))[0], bad).toMatch(
        /^EMS_ALLOWED_HOSTS (must be host names or \*\.domain patterns|lists no host)/,
      );
    }
  });

  it("takes exact origins in EMS_ALLOW_PRIVATE_ORIGINS, and refuses anything with a path, a user or another scheme", () => {
    expect(
      parseServerEnv({ ...valid, EMS_ALLOW_PRIVATE_ORIGINS: "http://127.0.0.1:4010, https://EMS.internal:8443/,https://ems.internal:443" }).EMS_ALLOW_PRIVATE_ORIGINS,
    ).toEqual(["http://127.0.0.1:4010", "https://ems.internal:8443", "https://ems.internal"]);
    expect(parseServerEnv(valid).EMS_ALLOW_PRIVATE_ORIGINS).toEqual([]);
    for (const bad of ["127.0.0.1:4010", "http://127.0.0.1:4010/internal-admin", "ftp://ems.internal", "https://user:pw@ems.internal", "http://127.0.0.1:4010?x=1"]) {
      const [problem] = problemsOf(() => parseServerEnv({ ...valid, EMS_ALLOW_PRIVATE_ORIGINS: bad }));
      expect(problem, bad).toBe(
        `EMS_ALLOW_PRIVATE_ORIGINS must be origins, comma-separated, each scheme://host:port with no path (e.g. http://127.0.0.1:4010); "${bad}" is not one`,
      );
    }
  });
});

describe("the EMS client's variables", () => {
  it("default as documented and check their ranges", () => {
    expect(emsEnv({})).toEqual({
      EMS_TOKEN_RENEW_BEFORE_SECONDS: 300,
      EMS_TIMEOUT_MS: 10_000,
      EMS_WEBHOOK_GROUPS_PATH: "/api/v1/webhook-groups",
      EMS_SHARED_ANSWER_SECONDS: 30,
      EMS_COVERAGE_CACHE_SECONDS: 60,
      EMS_BACKGROUND_RESERVE_PERCENT: 30,
      EMS_LOW_BUDGET_PERCENT: 20,
      EMS_WRITE_PATHS: {},
    });
    expect(emsEnv({ EMS_WRITE_PATHS: "webhooks.update=/api/v1/webhooks/{id}/edit, webhook-groups.create=/api/v1/groups/new" }).EMS_WRITE_PATHS).toEqual({
      "webhooks.update": "/api/v1/webhooks/{id}/edit",
      "webhook-groups.create": "/api/v1/groups/new",
    });
    expect(problemsOf(() => emsEnv({ EMS_WRITE_PATHS: "webhooks.update=/api/v1/webhooks/edit" }))[0]).toMatch(/holding \{id\}/);
    expect(problemsOf(() => emsEnv({ EMS_WRITE_PATHS: "webhooks.rename=/x" }))[0]).toMatch(/not <operation>=<path>/);
    expect(problemsOf(() => emsEnv({ EMS_COVERAGE_CACHE_SECONDS: "3601" }))).toEqual(["EMS_COVERAGE_CACHE_SECONDS must be a whole number from 0 to 3,600"]);
    expect(emsEnv({ EMS_SHARED_ANSWER_SECONDS: "0" }).EMS_SHARED_ANSWER_SECONDS).toBe(0);
    expect(problemsOf(() => emsEnv({ EMS_BACKGROUND_RESERVE_PERCENT: "95" }))).toEqual(["EMS_BACKGROUND_RESERVE_PERCENT must be a whole number from 0 to 90"]);
    expect(emsEnv({ EMS_WEBHOOK_GROUPS_PATH: "/api/v2/groups/" }).EMS_WEBHOOK_GROUPS_PATH).toBe("/api/v2/groups");
    expect(problemsOf(() => emsEnv({ EMS_TOKEN_RENEW_BEFORE_SECONDS: "3600" }))).toEqual(["EMS_TOKEN_RENEW_BEFORE_SECONDS must be a number from 0 to 1,800"]);
    expect(problemsOf(() => emsEnv({ EMS_WEBHOOK_GROUPS_PATH: "groups?x=1" }))[0]).toMatch(/^EMS_WEBHOOK_GROUPS_PATH must be a path starting with "\/"/);
  });
});

describe("the export's row cap", () => {
  it("is EXPORT_MAX_ROWS, 10,000 by default", () => {
    expect(exportEnv({}).EXPORT_MAX_ROWS).toBe(10_000);
    expect(exportEnv({ EXPORT_MAX_ROWS: "250" }).EXPORT_MAX_ROWS).toBe(250);
    expect(problemsOf(() => exportEnv({ EXPORT_MAX_ROWS: "lots" }))).toEqual(["EXPORT_MAX_ROWS must be a whole number from 1 to 1,000,000"]);
  });

  it("runs at most EXPORT_MAX_SECONDS (300) and EXPORT_MAX_CONCURRENT (2) a person at once", () => {
    expect(exportEnv({})).toMatchObject({ EXPORT_MAX_SECONDS: 300, EXPORT_MAX_CONCURRENT: 2 });
    expect(exportEnv({ EXPORT_MAX_SECONDS: "60", EXPORT_MAX_CONCURRENT: "1" })).toMatchObject({ EXPORT_MAX_SECONDS: 60, EXPORT_MAX_CONCURRENT: 1 });
    expect(problemsOf(() => exportEnv({ EXPORT_MAX_SECONDS: "0" }))).toEqual(["EXPORT_MAX_SECONDS must be a whole number from 10 to 3,600"]);
  });
});

describe("the page render budget", () => {
  it("is EMS_PAGE_BUDGET_MS, 12 s by default", () => {
    expect(listingEnv({}).EMS_PAGE_BUDGET_MS).toBe(12_000);
    expect(listingEnv({ EMS_PAGE_BUDGET_MS: "5000" }).EMS_PAGE_BUDGET_MS).toBe(5_000);
    expect(problemsOf(() => listingEnv({ EMS_PAGE_BUDGET_MS: "10" }))).toEqual(["EMS_PAGE_BUDGET_MS must be a whole number from 1000 to 120,000"]);
  });
});

describe("the security headers' settings", () => {
  it("are NODE_ENV and NEXTAUTH_URL, neither required", () => {
    expect(securityHeadersEnv({})).toEqual({ NODE_ENV: "development", NEXTAUTH_URL: undefined });
    expect(securityHeadersEnv({ NODE_ENV: "production", NEXTAUTH_URL: "https://portal.example.com" })).toEqual({
      NODE_ENV: "production",
      NEXTAUTH_URL: "https://portal.example.com",
    });
  });
});

describe("the fingerprint secret", () => {
  it("is EMS_FINGERPRINT_SECRET, else NEXTAUTH_SECRET, else a message naming NEXTAUTH_SECRET", () => {
    expect(fingerprintSecret({ EMS_FINGERPRINT_SECRET: "f".repeat(32), NEXTAUTH_SECRET: "n".repeat(32) })).toBe("f".repeat(32));
    expect(fingerprintSecret({ NEXTAUTH_SECRET: "n".repeat(32) })).toBe("n".repeat(32));
    expect(problemsOf(() => fingerprintSecret({}))[0]).toMatch(/^NEXTAUTH_SECRET is missing/);
  });
});

describe("invitation mail settings", () => {
  it("are off without SMTP_URL and take smtp:// or smtps:// only", () => {
    expect(mailEnv({})).toEqual({ SMTP_URL: undefined, SMTP_FROM: "EMS Portal <no-reply@localhost>" });
    expect(mailEnv({ SMTP_URL: "smtps://u:p@mail.example.com:465" }).SMTP_URL).toBe("smtps://u:p@mail.example.com:465");
    expect(problemsOf(() => mailEnv({ SMTP_URL: "mail.example.com" }))[0]).toMatch(/^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
  });
});

describe("the sandbox's settings", () => {
  it("turn it on in development and tests", () => {
    expect(sandboxSettings({ NODE_ENV: "development" }).enabled).toBe(true);
    expect(sandboxSettings({ NODE_ENV: "test" }).enabled).toBe(true);
  });

  it("turn it off in production unless SANDBOX_ENABLED is true", () => {
    expect(sandboxSettings({ NODE_ENV: "production" }).enabled).toBe(false);
    expect(sandboxSettings({ NODE_ENV: "production", SANDBOX_ENABLED: "false" }).enabled).toBe(false);
    expect(sandboxSettings({ NODE_ENV: "production", SANDBOX_ENABLED: "true", SANDBOX_SIGNING_SECRET: "s".repeat(32) }).enabled).toBe(true);
    expect(sandboxSettings({ NODE_ENV: "production", SANDBOX_ENABLED: "1", SANDBOX_SIGNING_SECRET: "s".repeat(32) }).options.signingSecret).toBe("s".repeat(32));
  });

  it("refuse the public development signing secret (or none, or a short one) when production serves the sandbox", () => {
    const enabled = { NODE_ENV: "production", SANDBOX_ENABLED: "true" };
    expect(problemsOf(() => sandboxSettings(enabled))).toEqual([
      expect.stringMatching(/^SANDBOX_SIGNING_SECRET is missing: a production server with SANDBOX_ENABLED=true needs a secret of its own\. Make one with: node -e/),
    ]);
    expect(problemsOf(() => sandboxSettings({ ...enabled, SANDBOX_SIGNING_SECRET: DEV_SIGNING_SECRET }))).toEqual([
      expect.stringMatching(/^SANDBOX_SIGNING_SECRET is the public development default/),
    ]);
    expect(problemsOf(() => sandboxSettings({ ...enabled, SANDBOX_SIGNING_SECRET: "short" }))).toEqual([
      expect.stringMatching(/^SANDBOX_SIGNING_SECRET must be at least 32 characters/),
    ]);
    // Off in production, or outside production, the development default is fine (fake data on a developer's machine).
    expect(sandboxSettings({ NODE_ENV: "production" }).enabled).toBe(false);
    expect(sandboxSettings({ NODE_ENV: "development" }).options.signingSecret).toBeUndefined();
  });

  it("hand the sandbox its accounts from SANDBOX_ACCOUNTS, with a message naming the variable", () => {
    const settings = sandboxSettings({ SANDBOX_ACCOUNTS: JSON.stringify([{ key: "k", secret: "s", groups: 3 }]), SANDBOX_PORT: "4999" });
    expect(settings.options.accounts).toEqual([{ key: "k", secret: "s", groups: 3, events: 60, seed: 1 }]);
    expect(settings.port).toBe(4999);
    expect(problemsOf(() => sandboxSettings({ SANDBOX_ACCOUNTS: "not json" }))[0]).toMatch(/^SANDBOX_ACCOUNTS is not valid JSON/);
    const twice = JSON.stringify([
      { key: "k", secret: "a" },
      { key: "k", secret: "b" },
    ]);
    expect(problemsOf(() => sandboxSettings({ SANDBOX_ACCOUNTS: twice }))[0]).toMatch(/^SANDBOX_ACCOUNTS is invalid: .*"k" is listed twice/);
  });

  it("hand it the demo drift from SANDBOX_DRIFT_SECONDS, off unless set", () => {
    expect(sandboxSettings({}).options.driftSeconds).toBe(0);
    expect(sandboxSettings({ SANDBOX_DRIFT_SECONDS: "120" }).options.driftSeconds).toBe(120);
    expect(problemsOf(() => sandboxSettings({ SANDBOX_DRIFT_SECONDS: "-5" }))[0]).toMatch(/^SANDBOX_DRIFT_SECONDS must be a whole number from 0 to 86,400/);
  });
});

describe("tooling environment", () => {
  it("has the defaults of the embedded database and checks the URLs", () => {
    expect(parseToolingEnv({})).toEqual({ EMBEDDED_DATABASE_PORT: 54329, EMBEDDED_DATA_DIR: ".data/postgres" });
    expect(problemsOf(() => parseToolingEnv({ TEST_DATABASE_URL: "mysql://localhost/test" }))).toEqual(["TEST_DATABASE_URL must be a postgresql:// URL"]);
  });
});
