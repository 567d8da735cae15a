import { afterEach, describe, expect, it } from "vitest";
import { emsLog } from "@/lib/ems/log";
import { captureOutput } from "./support/capture-logs";
import { withEnv } from "./support/env";

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe("emsLog", () => {
  it("writes one JSON line per event: info to stdout, warnings to stderr", async () => {
    restore = withEnv({ EMS_LOG_LEVEL: undefined });
    const { lines } = await captureOutput(async () => {
      emsLog("info", "ems.http", { requestId: "r1", method: "GET", path: "/api/v1/events", status: 200, durationMs: 3 });
      emsLog("warn", "ems.http", { requestId: "r2", status: 503 });
    });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: "info", scope: "ems", event: "ems.http", requestId: "r1", method: "GET", path: "/api/v1/events", status: 200, durationMs: 3 }),
      expect.objectContaining({ level: "warn", requestId: "r2", status: 503 }),
    ]);
  });

  it("drops fields named like secrets and masks anything that looks like an Authorization value", async () => {
    restore = withEnv({ EMS_LOG_LEVEL: "info" });
    const { output } = await captureOutput(async () => {
      emsLog("info", "ems.test", {
        authorization: "Bearer abc.def",
        accessToken: "tok-123",
        consumerSecret: "s3cret",
        password: "pw",
        detail: "upstream said: bearer eyJhbGciOi.xyz and Basic ZW1zOnNlY3JldA==",
      });
    });
    for (const leaked of ["abc.def", "tok-123", "s3cret", '"pw"', "eyJhbGciOi", "ZW1zOnNlY3JldA"]) expect(output).not.toContain(leaked);
    expect(output).toContain("[redacted]");
  });

  it("honours EMS_LOG_LEVEL", async () => {
    restore = withEnv({ EMS_LOG_LEVEL: "warn" });
    const { lines } = await captureOutput(async () => {
      emsLog("info", "ems.quiet");
      emsLog("error", "ems.loud");
    });
    expect(lines.map((line) => JSON.parse(line).event)).toEqual(["ems.loud"]);
  });
});
