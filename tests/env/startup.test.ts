import { afterEach, describe, expect, it, vi } from "vitest";
import { DEV_SIGNING_SECRET } from "@/lib/sandbox/core/config";
import { validateEnvironmentOrExit } from "@/lib/startup";

// instrumentation.ts calls validateEnvironmentOrExit() when a server instance starts. Here
// process.exit is stubbed (it throws, as the real one never returns) and stderr is captured.
class Exited extends Error {
  constructor(readonly code: number | string | null | undefined) {
    super(`exit ${code}`);
  }
}

function start(): { exitCode: number | string | null | undefined; stderr: string } {
  let stderr = "";
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  vi.spyOn(process, "exit").mockImplementation((code) => {
    throw new Exited(code);
  });
  try {
    validateEnvironmentOrExit();
    return { exitCode: undefined, stderr };
  } catch (error) {
    if (error instanceof Exited) return { exitCode: error.code, stderr };
    throw error;
  } finally {
    vi.restoreAllMocks();
  }
}

const production = {
  NODE_ENV: "production",
  DATABASE_URL: "postgresql://u:p@db.example.com:5432/ems",
  NEXTAUTH_SECRET: "x".repeat(43),
  CREDENTIAL_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString("base64")}`,
};

function stubEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("start-up check (lib/startup.ts)", () => {
  it("lets a valid environment start", () => {
    stubEnv(production);
    expect(start()).toEqual({ exitCode: undefined, stderr: "" });
  });

  it("stops with exit code 1 and names the missing variable and how to make it", () => {
    stubEnv({ ...production, NEXTAUTH_SECRET: undefined });
    const { exitCode, stderr } = start();
    expect(exitCode).toBe(1);
    expect(stderr).toContain("EMS Portal cannot start: the environment is not valid.");
    expect(stderr).toMatch(/- NEXTAUTH_SECRET is missing\. Make one with: node -e/);
    expect(stderr).toContain("See the configuration table in README.md.");
  });

  it("refuses a production server that would serve the sandbox with the public development signing secret", () => {
    for (const secret of [undefined, DEV_SIGNING_SECRET]) {
      stubEnv({ ...production, SANDBOX_ENABLED: "true", SANDBOX_SIGNING_SECRET: secret });
      const { exitCode, stderr } = start();
      expect(exitCode, String(secret)).toBe(1);
      expect(stderr).toMatch(
        /- SANDBOX_SIGNING_SECRET (is missing|is the public development default): a production server with SANDBOX_ENABLED=true needs a secret of its own/,
      );
    }
    stubEnv({ ...production, SANDBOX_ENABLED: "true", SANDBOX_SIGNING_SECRET: "s".repeat(43) });
    expect(start()).toEqual({ exitCode: undefined, stderr: "" });
  });

  it("names every malformed variable, the EMS client's included", () => {
    stubEnv({ ...production, EMS_TIMEOUT_MS: "ten seconds", DATABASE_POOL_MAX: "0" });
    const { exitCode, stderr } = start();
    expect(exitCode).toBe(1);
    expect(stderr).toContain("- EMS_TIMEOUT_MS must be a whole number from 1 to 300,000");
    expect(stderr).toContain("- DATABASE_POOL_MAX must be a whole number from 1 to 1,000");
  });
});
