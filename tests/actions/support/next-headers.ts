// Stands in for `next/headers` outside a Next request (vi.mock("next/headers", ...)): the same
// functions, answering with the test's current request (set by ./request.ts). The cookie jar is Next's own
// RequestCookies class, reading the Cookie header as Next does.
import { RequestCookies } from "next/dist/server/web/spec-extension/cookies";
import { currentRequestHeaders } from "./current-request";

export async function headers(): Promise<Headers> {
  return new Headers(currentRequestHeaders());
}

export async function cookies(): Promise<RequestCookies> {
  return new RequestCookies(currentRequestHeaders());
}
