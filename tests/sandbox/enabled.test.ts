import { describe, expect, it } from "vitest";
import { isSandboxEnabled } from "@/lib/sandbox/embedded";

describe("whether the portal serves the sandbox at /sandbox", () => {
  it("is on in development and tests", () => {
    expect(isSandboxEnabled({ NODE_ENV: "development" })).toBe(true);
    expect(isSandboxEnabled({ NODE_ENV: "test" })).toBe(true);
  });
  it("is off in production unless SANDBOX_ENABLED is true", () => {
    expect(isSandboxEnabled({ NODE_ENV: "production" })).toBe(false);
    expect(isSandboxEnabled({ NODE_ENV: "production", SANDBOX_ENABLED: "false" })).toBe(false);
    expect(isSandboxEnabled({ NODE_ENV: "production", SANDBOX_ENABLED: "true" })).toBe(true);
  });
});
