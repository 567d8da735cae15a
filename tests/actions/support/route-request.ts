// A request to a route handler as the browser would send it: the headers of the test's current
// request (./request.ts: the session cookie, the client's address), so that what the route reads
// from `next/headers` and from the Request itself agree, as they do in Next.
import { currentRequestHeaders } from "./current-request";

export function routeRequest(path: string, init: { signal?: AbortSignal } = {}): Request {
  return new Request(new URL(path, "http://localhost:3000"), { headers: new Headers(currentRequestHeaders()), signal: init.signal });
}

/** The `{ error }` of a route's refusal. */
export async function errorOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: string }).error;
}
