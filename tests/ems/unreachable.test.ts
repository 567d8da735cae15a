// When the EMS cannot be reached, the message names the cause from the transport's error and says
// what to do (lib/ems/unreachable.ts), for errors made by real sockets: a host DNS cannot resolve,
// a port nobody listens on, a server that never answers, and a 5xx.
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamUnavailableError } from "@/lib/ems/errors";
import { emsHttp } from "@/lib/ems/http";
import { setHostResolver } from "@/lib/ems/outbound";
import { requestToken } from "@/lib/ems/token-endpoint";
import { CREDENTIALS_SETTINGS_PATH } from "@/lib/credentials/paths";
import { classifyUnreachable } from "@/lib/ems/unreachable";
import { allowPrivateOrigin, ensureEmsTestEnv } from "./support/env";

const cleanups: (() => unknown)[] = [];
beforeAll(() => ensureEmsTestEnv());
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function failureOf(url: string, timeoutMs = 5_000): Promise<UpstreamUnavailableError> {
  const error = await emsHttp({
    method: "GET",
    url,
    path: new URL(url).pathname,
    headers: {},
    requestId: "unreachable",
    fingerprint: "unreachable",
    retry: false,
    timeoutMs,
  }).then(
    () => {
      throw new Error("expected the request to fail");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UpstreamUnavailableError);
  return error as UpstreamUnavailableError;
}

async function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("an EMS that cannot be reached", () => {
  it("names a host DNS cannot resolve, and says to check the base URL", async () => {
    // The system's resolver, for real. The .example top-level domain is never delegated (RFC 2606); a
    // .invalid name would not get this far: the destination policy refuses it before any lookup.
    const previous = setHostResolver(null);
    cleanups.push(() => setHostResolver(previous));
    const error = await failureOf("https://api.exmple.example/api/v1/webhook-groups");
    setHostResolver(previous);
    expect(error.unreachable?.reason).toBe("dns");
    expect(error.userMessage).toBe("Couldn't resolve api.exmple.example: check the base URL.");
    expect(error.unreachable?.fixInSettings).toBe(true);
    expect(error.code).toBe("ems_unavailable");
  });

  it("says that the host refused the connection on a port nobody listens on", async () => {
    const server = createServer();
    const port = await listen(server);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const origin = `http://127.0.0.1:${port}`;
    cleanups.push(allowPrivateOrigin(origin));
    const error = await failureOf(`${origin}/api/v1/webhook-groups`);
    expect(error.unreachable?.reason).toBe("refused");
    expect(error.userMessage).toMatch(/^127\.0\.0\.1 refused the connection: check the base URL and its port/);
  });

  it("says how long it waited for a server that accepts the connection and never answers", async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => void sockets.push(socket));
    const port = await listen(server);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    );
    const origin = `http://127.0.0.1:${port}`;
    cleanups.push(allowPrivateOrigin(origin));
    const error = await failureOf(`${origin}/api/v1/events`, 1_000);
    expect(error.unreachable?.reason).toBe("timeout");
    expect(error.code).toBe("ems_timeout");
    expect(error.userMessage).toBe("127.0.0.1 did not answer within 1 s: it may be slow or down. Try again in a moment, or check the base URL.");
  });

  it("names a server error with its status", async () => {
    const server = createHttpServer((_request, response) => response.writeHead(503).end("down"));
    const port = await listen(server);
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${port}`;
    cleanups.push(allowPrivateOrigin(origin));
    const error = await requestToken({ fingerprint: "unreachable-5xx", baseUrl: origin, consumerKey: "k", consumerSecret: "s" }, "unreachable").then(
      () => null,
      (caught: unknown) => caught as UpstreamUnavailableError,
    );
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error?.unreachable?.reason).toBe("server");
    expect(error?.userMessage).toMatch(/^127\.0\.0\.1 answered with a server error \(503\): try again in a moment/);
  }, 20_000);

  it("names a certificate the TLS check refused, from Node's codes", () => {
    for (const code of ["DEPTH_ZERO_SELF_SIGNED_CERT", "CERT_HAS_EXPIRED", "ERR_TLS_CERT_ALTNAME_INVALID", "UNABLE_TO_VERIFY_LEAF_SIGNATURE"]) {
      const named = classifyUnreachable({ error: Object.assign(new Error("tls"), { code }), host: "ems.example.com" });
      expect(named.reason).toBe("tls");
      expect(named.message).toContain(`ems.example.com's TLS certificate could not be verified (${code})`);
    }
  });

  it("reads a code nested in a cause, and falls back to a plain network failure", () => {
    expect(
      classifyUnreachable({ error: new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }) }), host: "a.example" }).reason,
    ).toBe("refused");
    const reset = classifyUnreachable({ error: Object.assign(new Error("reset"), { code: "ECONNRESET" }), host: "a.example" });
    expect(reset.reason).toBe("network");
    expect(reset.message).toBe("The connection to a.example failed (ECONNRESET): try again in a moment, or check the base URL.");
  });

  it("links to the credentials' own settings page", () => {
    expect(CREDENTIALS_SETTINGS_PATH).toBe("/settings/credentials");
  });
});
