import { expect, type Page } from "@playwright/test";
import { E2E_BASE_URL } from "./helpers/config";
import { newTestUser, signUp, type TestUser } from "./helpers/auth";

/** The sandbox embedded in the portal under test. */
export const SANDBOX_BASE_URL = `${E2E_BASE_URL.replace(/\/$/, "")}/sandbox`;
export const DEMO = { consumerKey: "ems_demo_key", consumerSecret: "s3cret pass+/=:%&é" };

/** A fresh person with their own team, using the sandbox's demo account (one click in Settings). */
export async function signUpWithSandbox(page: Page, prefix = "lister", account: "demo" | "other" = "demo"): Promise<TestUser> {
  const user = newTestUser(prefix);
  await signUp(page, user);
  await chooseSandbox(page, account);
  return user;
}

export async function chooseSandbox(page: Page, account: "demo" | "other" = "demo"): Promise<void> {
  await page.goto("/settings/credentials");
  if (account === "other") await page.getByLabel("Second demo account").check();
  await page.getByRole("button", { name: "Use the sandbox" }).click();
  await expect(page.getByTestId("sandbox-quick-start-success").or(page.getByText("Saved, encrypted (never shown)")).first()).toBeVisible({ timeout: 30_000 });
}

/** The contract's encoding of a key or secret (every byte outside A-Z a-z 0-9 - _ . percent-encoded). */
export function encodePart(value: string): string {
  return [...new TextEncoder().encode(value)]
    .map((byte) => {
      const ch = String.fromCharCode(byte);
      return /[A-Za-z0-9\-_.]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");
}

/** Straight to the API, as a second opinion on what the portal shows. */
export async function apiList(
  resource: "webhook-groups" | "events" | "webhooks",
  query: string,
  credentials = DEMO,
): Promise<{ items: Record<string, unknown>[]; _meta: { totalCount: number; pageCount: number; currentPage: number; perPage: number } }> {
  const basic = Buffer.from(`${encodePart(credentials.consumerKey)}:${encodePart(credentials.consumerSecret)}`).toString("base64");
  const tokenResponse = await fetch(`${SANDBOX_BASE_URL}/api/v1/oauth2/token`, {
    method: "POST",
    headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" },
    body: "grant_type=client_credentials",
  });
  expect(tokenResponse.status).toBe(200);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const response = await fetch(`${SANDBOX_BASE_URL}/api/v1/${resource}?${query}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as never;
}

/** Every page of a query, straight from the API. */
export async function apiListAll(resource: "webhook-groups" | "events", query: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const body = await apiList(resource, `${query}${query ? "&" : ""}per-page=200&page=${page}`);
    items.push(...body.items);
    if (page >= body._meta.pageCount) return items;
  }
}

/** The ids of the rows on screen; [] while a navigation (a form submit and its canonical redirect) is under way, so use it with expect.poll. */
export async function rowIds(page: Page): Promise<number[]> {
  try {
    return await page.getByTestId("listing-row").evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-id"))));
  } catch {
    return [];
  }
}
