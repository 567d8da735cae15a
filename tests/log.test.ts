import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "@/lib/log";
import { logSettings } from "@/lib/env";

function capture(level: "info" | "warn" = "info") {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ level, destination }), lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the logger", () => {
  it("writes one JSON object a line with an ISO time and the level as a word", () => {
    const { logger, parsed } = capture();
    logger.child({ requestId: "r1" }).info({ event: "ems.http", status: 200 }, "EMS call");
    expect(parsed()).toEqual([expect.objectContaining({ level: "info", requestId: "r1", event: "ems.http", status: 200, msg: "EMS call" })]);
    expect(String(parsed()[0]!.time)).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("removes secret-named fields at the top, one level down and in request headers", () => {
    const { logger, lines } = capture();
    logger.info({
      authorization: "Bearer top.level",
      password: "hunter2-password",
      token: "tok-123",
      consumerSecret: "s3cret",
      nested: { accessToken: "nested-token", cookie: "sid=abc" },
      req: { headers: { authorization: "Basic aGVhZGVy", "set-cookie": "next-auth=xyz" } },
    });
    const output = lines.join("\n");
    for (const leaked of ["top.level", "hunter2-password", "tok-123", "s3cret", "nested-token", "sid=abc", "aGVhZGVy", "next-auth=xyz"]) {
      expect(output).not.toContain(leaked);
    }
  });

  it("masks anything that looks like an Authorization value inside a message field", () => {
    const { logger, lines } = capture();
    logger.warn({ detail: "upstream said: bearer eyJhbGciOi.xyz and Basic ZW1zOnNlY3JldA==" });
    expect(lines.join("\n")).not.toMatch(/eyJhbGciOi|ZW1zOnNlY3JldA/);
    expect(lines.join("\n")).toContain("[redacted]");
  });

  it("logs an error as its class, code and message only: no stack, no attached objects, no password of a connection string", () => {
    const { logger, parsed, lines } = capture();
    const failure = Object.assign(new Error("connect failed for postgresql://portal:hunter2-db@db.internal:5432/portal"), {
      code: "ECONNREFUSED",
      client: { processID: 4242, secretKey: 123456789, connectionParameters: { password: "hunter2-db" } },
    });
    logger.error({ event: "jobs.error", err: failure }, "job engine error");
    class DatabaseError extends Error {}
    logger.error({ event: "db.error", error: Object.assign(new DatabaseError("terminating connection"), { name: "error", code: "57P01" }) });
    expect(parsed()[0]!.err).toEqual({ type: "Error", code: "ECONNREFUSED", message: "connect failed for postgresql://portal:[redacted]@db.internal:5432/portal" });
    expect(parsed()[1]!.error).toEqual({ type: "DatabaseError", code: "57P01", message: "terminating connection" });
    expect(lines.join("\n")).not.toMatch(/hunter2|processID|secretKey|stack|\bat /);
  });

  it("honours its level", () => {
    const { logger, parsed } = capture("warn");
    logger.info({ event: "quiet" });
    logger.error({ event: "loud" });
    expect(parsed().map((entry) => entry.event)).toEqual(["loud"]);
  });
});

describe("logSettings", () => {
  it("is readable in development, JSON elsewhere, and silent under tests unless asked", () => {
    expect(logSettings({ NODE_ENV: "development" })).toEqual({ level: "info", pretty: true });
    expect(logSettings({ NODE_ENV: "production" })).toEqual({ level: "info", pretty: false });
    expect(logSettings({ NODE_ENV: "development", LOG_FORMAT: "json", LOG_LEVEL: "WARN" })).toEqual({ level: "warn", pretty: false });
    expect(logSettings({ NODE_ENV: "test" }).level).toBe("silent");
    expect(logSettings({ NODE_ENV: "production", LOG_LEVEL: "loud" }).level).toBe("info");
  });
});
