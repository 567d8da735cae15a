/**
 * The sandbox core speaks this small, framework-free request/response shape. Adapters turn
 * node:http or Web Fetch objects into it, so the contract logic never depends on a server library.
 */
export type SandboxRequest = {
  method: string;
  /** Path after the mount prefix, e.g. `/api/v1/webhook-groups.json`. */
  path: string;
  /** Raw query string without the leading `?` (may be empty). */
  query: string;
  /** Header names lower-cased. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Raw request body as text ("" when there is none). */
  body: string;
  /** External base URL of the mount, e.g. `http://localhost:3000/sandbox`; used to build links. */
  baseUrl: string;
  /** Remote address, used to bucket unauthenticated callers for rate limiting. */
  remoteAddress?: string;
};

export type SandboxResponse = {
  status: number;
  headers: Record<string, string>;
  body: string;
};

export const JSON_CONTENT_TYPE = "application/json; charset=UTF-8";
