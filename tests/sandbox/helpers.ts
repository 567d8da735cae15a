import { basicAuthorizationHeader } from "@/lib/sandbox/core/basic-credentials";
import { DEMO_CREDENTIALS, startSandboxServer, type StartedSandbox } from "@/lib/sandbox/testing";

/** Shared helpers for the sandbox tests: every call goes over real HTTP to a server on 127.0.0.1. */
export const FORM = "application/x-www-form-urlencoded;charset=UTF-8";

export type Credentials = { consumerKey: string; consumerSecret: string };

export async function requestToken(baseUrl: string, init: { authorization?: string; contentType?: string; body?: string; method?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (init.authorization !== undefined) headers.authorization = init.authorization;
  if (init.contentType !== undefined) headers["content-type"] = init.contentType;
  return fetch(`${baseUrl}/api/v1/oauth2/token`, {
    method: init.method ?? "POST",
    headers,
    body: init.method === "GET" || init.method === "HEAD" ? undefined : (init.body ?? "grant_type=client_credentials"),
  });
}

export async function tokenFor(baseUrl: string, credentials: Credentials = DEMO_CREDENTIALS): Promise<string> {
  const response = await requestToken(baseUrl, {
    authorization: basicAuthorizationHeader(credentials.consumerKey, credentials.consumerSecret),
    contentType: FORM,
  });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export type Page<T = Record<string, unknown>> = {
  items: T[];
  _links: Record<string, { href: string } | undefined>;
  _meta: { totalCount: number; pageCount: number; currentPage: number; perPage: number };
};

export async function list(baseUrl: string, token: string, resource: "webhook-groups" | "webhooks" | "events", query = ""): Promise<Response> {
  return fetch(`${baseUrl}/api/v1/${resource}${query ? `?${query}` : ""}`, { headers: { authorization: `Bearer ${token}` } });
}

export async function listOk<T = Record<string, unknown>>(
  baseUrl: string,
  token: string,
  resource: "webhook-groups" | "webhooks" | "events",
  query = "",
): Promise<Page<T>> {
  const response = await list(baseUrl, token, resource, query);
  if (response.status !== 200) throw new Error(`listing failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Page<T>;
}

/** Every page of a listing, walked the way the contract says (stop at pageCount). */
export async function listAll<T = Record<string, unknown>>(baseUrl: string, token: string, resource: "webhook-groups" | "webhooks" | "events", query = ""): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const result = await listOk<T>(baseUrl, token, resource, `${query}${query ? "&" : ""}per-page=200&page=${page}`);
    items.push(...result.items);
    if (page >= result._meta.pageCount) return items;
  }
}

export async function expectError(response: Response, status: number, message: string | RegExp): Promise<void> {
  const { expect } = await import("vitest");
  const body = (await response.json()) as { name: string; message: string; code: number; status: number };
  expect({ status: response.status, bodyStatus: body.status }).toEqual({ status, bodyStatus: status });
  expect(body.code).toBe(0);
  expect(typeof body.name).toBe("string");
  if (typeof message === "string") expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

export { DEMO_CREDENTIALS, startSandboxServer, type StartedSandbox };
