// Issue 24, finding 4: the 1 MB limit read only `Content-Length`. A chunked body has none, so it
// passed; Next.js then buffered up to 10 MB of it per request. The proxy now counts the bytes it
// reads of every write (lib/security/request-body.ts), and Next.js's own copy for the proxy is
// bounded (next.config.js). e2e/request-limits.spec.ts sends the same bodies to a production build.
import { Readable } from "node:stream";
import { getCloneableBody } from "next/dist/server/body-streams";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import nextConfig, { BODY_LIMIT_BYTES as CONFIG_BODY_LIMIT, PROXY_BODY_COPY_BYTES as CONFIG_COPY_LIMIT } from "@/next.config.js";
import { BODY_LIMIT_BYTES, PROXY_BODY_COPY_BYTES, readBodyWithin } from "@/lib/security/request-body";
import { proxy } from "@/proxy";

const CHUNK = 64 * 1024;

/** A body of `size` bytes in chunks, with no length anywhere (as a chunked upload arrives); counts what was pulled. */
function chunkedBody(size: number, chunk = CHUNK) {
  const pulled = { bytes: 0 };
  let left = size;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) return controller.close();
      const next = Math.min(chunk, left);
      left -= next;
      pulled.bytes += next;
      controller.enqueue(new Uint8Array(next).fill(0x61));
    },
  });
  return { stream, pulled };
}

function postTo(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  const init = { method: "POST", body, headers: { cookie: "next-auth.session-token=t", host: "portal.test", ...headers }, duplex: "half" };
  return new NextRequest(new URL(path, "http://portal.test"), init as ConstructorParameters<typeof NextRequest>[1]);
}

describe("readBodyWithin: bytes counted as read", () => {
  it("refuses a chunked body past the limit, and stops reading soon after the limit", async () => {
    const { stream, pulled } = chunkedBody(2 * 1024 * 1024);
    const result = await readBodyWithin(new Request("http://portal.test/x", { method: "POST", body: stream, duplex: "half" } as RequestInit & { duplex: "half" }));
    expect(result.kind).toBe("too-large");
    expect(pulled.bytes).toBeLessThan(BODY_LIMIT_BYTES + 4 * CHUNK);
  });

  it("does not trust a Content-Length smaller than the body", async () => {
    const { stream } = chunkedBody(2 * 1024 * 1024);
    const request = new Request("http://portal.test/x", { method: "POST", body: stream, headers: { "content-length": "10" }, duplex: "half" } as RequestInit & {
      duplex: "half";
    });
    expect((await readBodyWithin(request)).kind).toBe("too-large");
  });

  it("reads a body up to the limit in full, byte for byte", async () => {
    const { stream } = chunkedBody(BODY_LIMIT_BYTES, 1000);
    const result = await readBodyWithin(new Request("http://portal.test/x", { method: "POST", body: stream, duplex: "half" } as RequestInit & { duplex: "half" }));
    expect(result.kind).toBe("read");
    expect(result.kind === "read" && result.bytes.byteLength).toBe(BODY_LIMIT_BYTES);
  });
});

describe("the proxy refuses a write past the limit whatever the headers say", () => {
  const over = () => chunkedBody(2 * 1024 * 1024).stream;
  it("a chunked server action body with no Content-Length: 413, before the action", async () => {
    const response = await proxy(postTo("/settings", over(), { "next-action": "7f".repeat(21), "content-type": "text/plain;charset=UTF-8" }));
    expect(response.status).toBe(413);
    expect(response.headers.get("x-middleware-next")).toBeNull();
    expect(await response.text()).toContain("too large");
  });

  it("a chunked multipart form, a URL-encoded sign-in, and writes to route handlers (next-auth, the sandbox, any API path)", async () => {
    for (const [path, type] of [
      ["/settings", "multipart/form-data; boundary=x"],
      ["/sign-in", "application/x-www-form-urlencoded"],
      ["/api/auth/callback/credentials", "application/x-www-form-urlencoded"],
      ["/sandbox/api/v1/oauth2/token", "application/x-www-form-urlencoded"],
      ["/api/health", "application/json"],
    ]) {
      expect((await proxy(postTo(path, over(), { "content-type": type }))).status, path).toBe(413);
    }
  });

  it("a body that lies about its length with a small Content-Length", async () => {
    const response = await proxy(postTo("/settings", over(), { "content-length": "2", "next-action": "7f".repeat(21), "content-type": "text/plain;charset=UTF-8" }));
    expect(response.status).toBe(413);
  });

  it("lets a body within the limit through", async () => {
    const body = `[${JSON.stringify("a".repeat(BODY_LIMIT_BYTES - 10))}]`;
    expect((await proxy(postTo("/settings", body, { "next-action": "7f".repeat(21), "content-type": "text/plain;charset=UTF-8" }))).status).toBe(200);
  });
});

describe("Next.js's own limits (next.config.js) match the proxy's", () => {
  it("the server action limit is the proxy's limit, and Next.js copies a little more than it for the proxy", () => {
    expect(CONFIG_BODY_LIMIT).toBe(BODY_LIMIT_BYTES);
    expect(CONFIG_COPY_LIMIT).toBe(PROXY_BODY_COPY_BYTES);
    expect(nextConfig.experimental?.serverActions?.bodySizeLimit).toBe(BODY_LIMIT_BYTES);
    expect(nextConfig.experimental?.proxyClientMaxBodySize).toBe(PROXY_BODY_COPY_BYTES);
    // Far below Next.js's 10 MB default, which every request with a body could make it buffer.
    expect(PROXY_BODY_COPY_BYTES).toBeLessThan(2 * 1024 * 1024);
  });

  it("a body Next.js cuts at its copy limit still shows the proxy more than the limit (Next.js's own copying code)", async () => {
    for (const chunk of [100, 1000, 16 * 1024, 64 * 1024]) {
      const source = Readable.from(
        (function* () {
          for (let sent = 0; sent < PROXY_BODY_COPY_BYTES + 512 * 1024; sent += chunk) yield Buffer.alloc(chunk, 0x61);
        })(),
        { objectMode: false },
      );
      const copy = getCloneableBody(source as never, PROXY_BODY_COPY_BYTES).cloneBodyStream();
      // Next.js hands this Node stream to the proxy's Request as it is (server/web/adapter.js).
      const request = new Request("http://portal.test/x", { method: "POST", body: copy as unknown as BodyInit, duplex: "half" } as RequestInit & { duplex: "half" });
      expect((await readBodyWithin(request)).kind, `chunks of ${chunk}`).toBe("too-large");
    }
  });
});
