import type { SandboxRequest } from "../core/http-types";
import { errorResponse } from "../core/errors";
import { MAX_BODY_BYTES, type SandboxHandler } from "./node-http";

/**
 * `cancel()` rejects only when the body's stream has already ended in an error (the client broke
 * off the upload): nothing is left to release, and the answer is 413 either way.
 */
function streamAlreadyEnded(): void {}

/** The body as text, or null past MAX_BODY_BYTES (counted as read: a chunked body declares no length). */
async function boundedText(request: Request): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? "") > MAX_BODY_BYTES) return null;
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(streamAlreadyEnded);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Web Fetch adapter for the Next.js route handler. `mountPath` is the path the sandbox is served
 * under (`/sandbox`); it is stripped, so `/sandbox/api/v1/events` reaches the core as `/api/v1/events`.
 */
export async function handleFetchRequest(sandbox: SandboxHandler, request: Request, mountPath: string): Promise<Response> {
  const url = new URL(request.url);
  const mountAt = url.pathname.indexOf(mountPath);
  const prefix = mountAt < 0 ? "" : url.pathname.slice(0, mountAt + mountPath.length);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const body = hasBody ? await boundedText(request) : "";
  if (body === null) {
    const tooLarge = errorResponse(413, `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
    return new Response(tooLarge.body, { status: tooLarge.status, headers: tooLarge.headers });
  }
  const normalized: SandboxRequest = {
    method: request.method,
    path: url.pathname.slice(prefix.length) || "/",
    query: url.search.startsWith("?") ? url.search.slice(1) : url.search,
    headers,
    body,
    baseUrl: `${url.origin}${prefix}`,
    remoteAddress: headers["x-forwarded-for"]?.split(",")[0]?.trim(),
  };
  const response = await sandbox.handle(normalized);
  // A 204 (a delete) and a HEAD carry no body: the Fetch Response refuses one, even empty.
  const bodyless = request.method === "HEAD" || response.status === 204 || response.status === 304;
  return new Response(bodyless ? null : response.body, { status: response.status, headers: response.headers });
}
