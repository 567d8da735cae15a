import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { noteDatabaseAnswered, noteDatabaseFailure } from "@/lib/db/outage";
import { OUTAGE_HEADING } from "@/lib/http/outage-page";
import { installOutageResponseHook, isPageRequest } from "@/lib/http/outage-response";

// lib/http/outage-response.ts on a real Node HTTP server: a page's 500 written while the database is
// suspect becomes the outage page (503, Retry-After, the response's CSP nonce on its style), however
// the 500 is written; anything else passes untouched. e2e/database-outage.spec.ts cuts a real
// production server's database mid-request.
type Handler = (res: http.ServerResponse) => void;
let handler: Handler = (res) => res.end();
let server: http.Server;
let base = "";

beforeAll(async () => {
  installOutageResponseHook();
  server = http.createServer((_req, res) => handler(res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => noteDatabaseAnswered());

/** Next's error shell: status set, then the body in pieces. */
const errorShell: Handler = (res) => {
  res.statusCode = 500;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Content-Security-Policy", "default-src 'self'; style-src 'self' 'nonce-n0nce123'");
  res.setHeader("ETag", '"shell"');
  res.write("<!DOCTYPE html><html><body>");
  res.end("</body></html>");
};

describe("the outage response", () => {
  it("leaves a page's 500 alone while the database answers", async () => {
    handler = errorShell;
    const answer = await fetch(`${base}/team`);
    expect(answer.status).toBe(500);
    expect(await answer.text()).toBe("<!DOCTYPE html><html><body></body></html>");
  });

  it("answers a page's 500 with the outage page while the database is suspect", async () => {
    handler = errorShell;
    noteDatabaseFailure();
    const answer = await fetch(`${base}/team?page=2`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("etag")).toBeNull();
    const html = await answer.text();
    expect(html).toContain(OUTAGE_HEADING);
    expect(html).toContain('<style nonce="n0nce123">');
    expect(html).toContain('href="/team?page=2"');
    expect(html).not.toContain("<body></body>");
  });

  it("does the same for a 500 written with writeHead, or with end alone", async () => {
    noteDatabaseFailure();
    handler = (res) => {
      res.writeHead(500, { "Content-Type": "text/html" });
      res.end("<html></html>");
    };
    expect((await fetch(`${base}/events`)).status).toBe(503);
    handler = (res) => {
      res.statusCode = 500;
      res.end();
    };
    const answer = await fetch(`${base}/events`);
    expect(answer.status).toBe(503);
    expect(await answer.text()).toContain(OUTAGE_HEADING);
  });

  it("leaves other statuses, API routes and server actions alone", async () => {
    noteDatabaseFailure();
    handler = (res) => {
      res.statusCode = 200;
      res.end("fine");
    };
    expect((await fetch(`${base}/team`)).status).toBe(200);
    handler = errorShell;
    expect((await fetch(`${base}/api/palette/views`)).status).toBe(500);
    expect((await fetch(`${base}/team`, { method: "POST", headers: { "next-action": "abc" } })).status).toBe(500);
  });

  it("counts as pages what proxy.ts does", () => {
    const request = (method: string, url: string, headers: http.IncomingHttpHeaders = {}) => ({ method, url, headers });
    expect(isPageRequest(request("GET", "/"))).toBe(true);
    expect(isPageRequest(request("HEAD", "/webhooks/12?x=1"))).toBe(true);
    expect(isPageRequest(request("GET", "/api/health"))).toBe(false);
    expect(isPageRequest(request("GET", "/sandbox/v1/events"))).toBe(false);
    expect(isPageRequest(request("GET", "/_next/static/x.js"))).toBe(false);
    expect(isPageRequest(request("POST", "/team"))).toBe(false);
    expect(isPageRequest(request("GET", "/team", { "next-action": "1" }))).toBe(false);
  });
});
