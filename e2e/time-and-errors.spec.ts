import { expect, test } from "@playwright/test";
import { formatDateTime, wallClockInZone } from "@/lib/time/format";
import { newTestUser, signUp } from "./helpers/auth";
import { shoot } from "./helpers/screenshots";
import { apiList, rowIds, signUpWithSandbox } from "./listing-helpers";

test.describe.configure({ timeout: 120_000 });

// A host that can never resolve: the .example top-level domain is not delegated (RFC 2606). (A .invalid
// name never gets this far: the destination policy refuses it before any lookup.)
const TYPO_BASE_URL = "https://api.exmple.example";

test("a base URL whose host does not resolve: the check, the lists and an event's page say so once, with the link to fix it", async ({ page }) => {
  await signUp(page, newTestUser("typo"));
  await page.goto("/settings");
  await page.getByLabel("Base URL").fill(TYPO_BASE_URL);
  await page.getByLabel("Consumer key").fill("ems_typo_key");
  await page.getByLabel("Consumer secret").fill("typo-secret");
  await page.getByRole("button", { name: "Save credentials" }).click();
  const checkFailed = page.getByTestId("credential-check-failed");
  await expect(checkFailed).toContainText("Couldn't resolve api.exmple.example: check the base URL.", { timeout: 30_000 });
  await checkFailed.getByRole("button", { name: "Save anyway" }).click();
  await expect(page.getByTestId("credential-form-success")).toContainText("Saved without a check");

  await page.goto("/webhook-groups");
  const notice = page.getByTestId("state-unavailable");
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice.getByRole("heading")).toHaveText("The EMS's address could not be found");
  // Said once, in words that name the host, not "The EMS API is unavailable" twice.
  await expect(page.getByText("Couldn't resolve api.exmple.example: check the base URL.")).toHaveCount(1);
  await expect(page.getByText(/is unavailable/)).toHaveCount(0);
  await expect(notice.getByRole("link", { name: "Fix the base URL in Settings" })).toHaveAttribute("href", "/settings/credentials");
  await expect(notice.getByRole("link", { name: "Try again" })).toBeVisible();
  await shoot(page, "unreachable", false);

  // A detail page says the same.
  await page.goto("/events/1");
  await expect(page.getByTestId("state-unavailable")).toContainText("Couldn't resolve api.exmple.example", { timeout: 30_000 });
});

test.describe("times", () => {
  // The browser's zone, which the page learns from the cookie its first load sets.
  test.use({ timezoneId: "Asia/Tokyo" });

  test("events come by start date; an event's page shows its times in the viewer's zone, with the event's own as a second line", async ({ page }) => {
    await signUpWithSandbox(page, "zones");
    await page.goto("/events");
    await expect(page.getByTestId("sort-menu")).toContainText("Starts, oldest first");
    const firstPage = await apiList("events", "sort=start_date&fields=id");
    await expect.poll(() => rowIds(page)).toEqual(firstPage.items.map((item) => item.id));
    await expect(page).toHaveURL(/\/events$/);

    const byStart = await apiList("events", "sort=start_date&fields=id,start_date,start_time,timezone&per-page=200");
    const event = byStart.items.find((item) => typeof item.timezone === "string" && item.timezone !== "Asia/Tokyo" && item.start_date)!;
    expect(event, "a sandbox event in another zone than Tokyo").toBeTruthy();
    await page.goto(`/events/${String(event.id)}`);
    const details = page.getByTestId("event-details");
    await expect(details).toBeVisible({ timeout: 30_000 });
    const moment = wallClockInZone(event.start_date, event.start_time, event.timezone)!;
    const starts = details.getByTestId("event-time").first();
    await expect(starts).toHaveText(formatDateTime(moment, "Asia/Tokyo"));
    await expect(starts).toHaveAttribute("title", moment.toISOString());
    await expect(details.getByTestId("event-own-time").first()).toContainText(`${formatDateTime(moment, String(event.timezone))} `);
    await expect(details.getByTestId("event-own-time").first()).toContainText("the event's time");
    await shoot(page, "event-two-zones", false);
  });
});
