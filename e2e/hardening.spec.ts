import { expect, test } from "@playwright/test";
import { newTestUser, signUp } from "./helpers/auth";
import { shoot } from "./helpers/screenshots";
import { E2E_BASE_URL, ROLE_STATE } from "./helpers/config";

// Two findings of the security review, tried on the production build as an attacker would:
// a base URL that points inside the network (SSRF), and a return address that leaves the portal.

test.describe("a base URL inside the network is refused when saved", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("loopback admin paths, metadata addresses and odd IPv4 spellings get a clear message and are not saved", async ({ page }) => {
    await signUp(page, newTestUser("ssrf"));
    await page.goto("/settings/credentials");
    for (const baseUrl of [
      "http://127.0.0.1:4999/internal-admin",
      "https://169.254.169.254",
      "https://2130706433",
      "https://0x7f000001",
      "https://[::ffff:127.0.0.1]",
      "https://100.64.0.1",
      "https://10.1.2.3",
    ]) {
      await page.getByLabel("Base URL").fill(baseUrl);
      await page.getByLabel("Consumer key").fill("key");
      await page.getByLabel("Consumer secret").fill("secret");
      await page.getByRole("button", { name: "Save credentials" }).click();
      await expect(page.getByText(/private network|must use HTTPS|only the built-in sandbox/), baseUrl).toBeVisible();
      // Nothing was saved, and what was typed is still there to correct.
      await expect(page.getByText("Saved, encrypted (never shown)")).toHaveCount(0);
      await expect(page.getByLabel("Base URL")).toHaveValue(baseUrl);
    }
  });
});

test.describe("return addresses stay on the portal", () => {
  test.use({ storageState: ROLE_STATE.lister });

  for (const callbackUrl of ["/%09/evil.example", "//evil.example", "/\\evil.example", "https://evil.example/", "/\t/evil.example", "javascript:alert(1)"]) {
    test(`a signed-in visitor to /sign-in?callbackUrl=${JSON.stringify(callbackUrl)} lands on the portal`, async ({ page }) => {
      const response = await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
      // A path of the portal's own that does not exist (`/%09/evil.example`) is a 404 here: fine.
      expect(response?.status()).toBeLessThan(500);
      expect(new URL(page.url()).origin).toBe(new URL(E2E_BASE_URL).origin);
    });
  }

  test("a return address with control or non-Latin-1 characters never answers 500", async ({ request }) => {
    for (const callbackUrl of ["/événements?q=café", "/a\u0000b", "/\u202eevil", "/x\r\nSet-Cookie: a=b"]) {
      const response = await request.get(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`, { maxRedirects: 0 });
      expect(response.status(), callbackUrl).toBeLessThan(500);
      const location = response.headers()["location"];
      if (location) expect(new URL(location, E2E_BASE_URL).origin, callbackUrl).toBe(new URL(E2E_BASE_URL).origin);
    }
  });
});

test.describe("a link from another site", () => {
  test.use({ storageState: ROLE_STATE.lister });

  test("to a bulk change reads no selection (and spends no credits) until the person asks, here", async ({ page }) => {
    const target = `${E2E_BASE_URL}/plans/new?resource=webhooks&filter=enabled%3D1&sort=id`;
    // A page of another site (served by the test itself) with a link to the portal: a real cross-site navigation.
    await page.route("http://elsewhere.example/**", (route) =>
      route.fulfill({ contentType: "text/html", body: `<!doctype html><a id="go" href="${target}">A prize for you</a>` }),
    );
    await page.goto("http://elsewhere.example/");
    await page.locator("#go").click();
    await expect(page).toHaveURL(target);
    await expect(page.getByTestId("selection-from-elsewhere")).toContainText("Nothing has been read or drafted yet");
    await expect(page.getByTestId("selection")).toHaveCount(0);
    await shoot(page, "plan-new-from-elsewhere");
    await page.getByTestId("selection-continue").click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Change [\d,]+ webhooks?$/);
  });
});
