import "server-only";
import http from "node:http";
import { databaseSuspectSince } from "@/lib/db/outage";
import { outagePageHtml, retryAfterSeconds } from "@/lib/http/outage-page";

/**
 * The last line of the calm outage: a page whose render failed because the database went away
 * WHILE it rendered answers 503 with the outage page, not Next's 500 error shell.
 *
 * Why here: proxy.ts answers the outage page before rendering once the database is known to be out
 * of reach, but a request that passed the proxy a moment before the database went has nobody to
 * change its status: Next.js fixes a failed render at 500 (docs/ARCHITECTURE.md, "A database
 * outage"). Its failure is noted before the status is written (instrumentation.ts's onRequestError
 * runs asDatabaseUnavailable on the error; the pool notes a dead connection by itself), so at the
 * moment Next writes the 500 head of a page, a suspect database means this 500 is the outage's.
 *
 * How: the prototypes of http.ServerResponse's writeHead, write and end are wrapped (as
 * lib/auth/forwarded-for.ts wraps the server's emit), so the hook sits under anything Next puts in
 * front of a response (its compression included). The first write of such a 500 writes the outage
 * page instead, with the response's own Content-Security-Policy nonce; what Next writes after it is
 * dropped. Any other response passes untouched, at the cost of one comparison.
 */

const INSTALLED = Symbol.for("ems-portal.outage-response-hook");
const REPLACED = Symbol("ems-portal.outage-response-replaced");

type Response = http.ServerResponse & { [REPLACED]?: boolean };
type Callback = (error?: Error | null) => void;

/** A page (what proxy.ts gives the outage page): not an API route, the sandbox, Next's files or a server action. */
export function isPageRequest(req: Pick<http.IncomingMessage, "method" | "url" | "headers"> | undefined): boolean {
  if (!req || (req.method !== "GET" && req.method !== "HEAD")) return false;
  if (req.headers["next-action"] !== undefined) return false;
  const path = (req.url ?? "/").split("?")[0]!;
  return !/^\/(api|sandbox|_next)(\/|$)/.test(path);
}

function failedForTheOutage(res: Response, statusCode: number): boolean {
  return statusCode === 500 && !res.headersSent && databaseSuspectSince() !== null && isPageRequest(res.req);
}

/** The nonce of the response's Content-Security-Policy (proxy.ts set it for this page), or "". */
function nonceOf(res: Response): string {
  const policy = res.getHeader("content-security-policy");
  return /'nonce-([^']+)'/.exec(String(policy ?? ""))?.[1] ?? "";
}

function writeOutagePage(res: Response, writeHead: http.ServerResponse["writeHead"], end: http.ServerResponse["end"]): void {
  res[REPLACED] = true;
  const now = Date.now();
  const retrySeconds = retryAfterSeconds((now - (databaseSuspectSince() ?? now)) / 1000);
  const body = res.req.method === "HEAD" ? "" : outagePageHtml({ retryHref: res.req.url ?? "/", retrySeconds, nonce: nonceOf(res) });
  // Next's headers for the page it meant to send (its encoding, length, caching) are not this page's.
  for (const name of ["content-encoding", "content-length", "etag", "vary", "x-nextjs-cache", "x-nextjs-prerender", "x-nextjs-stale-time"]) res.removeHeader(name);
  writeHead.call(res, 503, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Retry-After": String(retrySeconds),
    "Content-Length": String(Buffer.byteLength(body)),
  });
  (end as (this: http.ServerResponse, chunk: string) => http.ServerResponse).call(res, body);
}

function callbackOf(args: unknown[]): Callback | undefined {
  const last = args[args.length - 1];
  return typeof last === "function" ? (last as Callback) : undefined;
}

export function installOutageResponseHook(): void {
  const prototype = http.ServerResponse.prototype as unknown as Record<symbol, unknown> & {
    writeHead: http.ServerResponse["writeHead"];
    write: (...args: unknown[]) => boolean;
    end: (...args: unknown[]) => http.ServerResponse;
  };
  if (prototype[INSTALLED]) return;
  prototype[INSTALLED] = true;
  const { writeHead, write, end } = prototype;

  prototype.writeHead = function writeHeadOrOutagePage(this: Response, statusCode: number, ...rest: unknown[]) {
    if (this[REPLACED]) return this;
    if (failedForTheOutage(this, statusCode)) {
      writeOutagePage(this, writeHead, end as http.ServerResponse["end"]);
      return this;
    }
    return (writeHead as (...args: unknown[]) => http.ServerResponse).call(this, statusCode, ...rest);
  } as http.ServerResponse["writeHead"];

  // write and end: the first write of a failed page writes the outage page instead; what Next
  // writes after it is dropped (its callbacks still called).
  const writingOrDropped = <R>(original: (...args: unknown[]) => R, whenDropped: (res: Response) => R) =>
    function writeOrDrop(this: Response, ...args: unknown[]): R {
      if (!this[REPLACED] && failedForTheOutage(this, this.statusCode)) writeOutagePage(this, writeHead, end as http.ServerResponse["end"]);
      if (!this[REPLACED]) return original.apply(this, args);
      const done = callbackOf(args);
      if (done) process.nextTick(done);
      return whenDropped(this);
    };
  prototype.write = writingOrDropped(write, () => true);
  prototype.end = writingOrDropped(end, (res) => res);
}
