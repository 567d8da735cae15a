import type { SandboxRequest } from "../core/http-types";
import type { SandboxHandler } from "./node-http";

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
  const normalized: SandboxRequest = {
    method: request.method,
    path: url.pathname.slice(prefix.length) || "/",
    query: url.search.startsWith("?") ? url.search.slice(1) : url.search,
    headers,
    body: hasBody ? await request.text() : "",
    baseUrl: `${url.origin}${prefix}`,
    remoteAddress: headers["x-forwarded-for"]?.split(",")[0]?.trim(),
  };
  const response = await sandbox.handle(normalized);
  return new Response(request.method === "HEAD" ? null : response.body, { status: response.status, headers: response.headers });
}
