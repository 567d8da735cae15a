import { expect, test } from "@playwright/test";
import { ROLE_STATE } from "./helpers/config";
import { shoot } from "./helpers/screenshots";
import { apiListAll, signUpWithSandbox } from "./listing-helpers";

// Coverage and health checks over the sandbox's demo account, which plants the setup faults real
// teams make (lib/sandbox/data/faults.ts). Read-only tests use the lister; tests that mute findings
// or require triggers sign up a team of their own.
test.describe.configure({ timeout: 120_000 });

type Hook = { id: number; name: string; enabled: boolean; any_event: boolean; event_ids: number[] };
type Group = { id: number; name: string; webhooks: Hook[] };
type Event = { id: number; name: string; status: string; end_date: string | null };

/** Straight from the API: a live event that no enabled webhook fires for. */
async function uncoveredLiveEvent(): Promise<Event> {
  const [groups, events] = await Promise.all([
    apiListAll("webhook-groups", "expand=webhooks") as Promise<Group[]>,
    apiListAll("events", "fields=id,name,status,end_date") as Promise<Event[]>,
  ]);
  const hooks = groups.flatMap((group) => group.webhooks).filter((hook) => hook.enabled);
  expect(hooks.some((hook) => hook.any_event)).toBe(false);
  const covered = new Set(hooks.flatMap((hook) => hook.event_ids));
  const today = new Date().toISOString().slice(0, 10);
  const event = events.find((candidate) => candidate.status === "live" && !covered.has(candidate.id) && !(candidate.end_date && candidate.end_date < today));
  expect(event, "the demo account plants a live event that no webhook covers").toBeTruthy();
  return event!;
}

test.describe("read-only", () => {
  test.use({ storageState: ROLE_STATE.lister });

  test("coverage shows a live event that no webhook covers; its page says what fires and why", async ({ page }) => {
    const event = await uncoveredLiveEvent();
    await page.goto("/coverage");
    await expect(page.getByTestId("coverage-table")).toBeVisible();
    await page.getByTestId("data-age").click();
    await expect(page.getByRole("dialog", { name: "Data and API budget" })).toContainText("groups");
    await shoot(page, "coverage", false);

    const row = page.locator(`[data-testid="coverage-row"][data-event-id="${event.id}"]`);
    await expect(row).toBeVisible();
    // Nothing delivers for it: no cell of its row is "ok".
    await expect(row.locator('[data-testid="coverage-cell"][data-state~="ok"]')).toHaveCount(0);

    // Filtering by name keeps it, in the URL.
    await page.getByLabel("Event name contains").fill(event.name);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/[?&]q=/);
    await expect(page.getByTestId("coverage-row").first()).toHaveAttribute("data-event-id", String(event.id));

    await row.getByRole("link", { name: event.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/events/${event.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(event.name);
    await expect(page.getByTestId("event-details")).toContainText(String(event.id));
    await expect(page.getByTestId("event-coverage").or(page.getByTestId("event-uncovered"))).toBeVisible();
    await expect(page.locator('[data-testid="event-trigger"][data-state="ok"]')).toHaveCount(0);
    // Why: the health finding about it, linked to the Health page.
    await expect(page.getByTestId("event-findings")).toContainText(event.name);
    await shoot(page, "event-page");
  });

  test("Health's 'Show in the list' opens the groups list filtered by the check: its chip and count, exactly its groups; the chip is removed by keyboard", async ({
    page,
  }) => {
    const check = "group-without-notification-emails";
    await page.goto(`/health?rule=${check}`);
    const rule = page.locator(`[data-testid="health-rule"][data-rule="${check}"]`);
    const count = (await rule.getByTestId("rule-count").innerText()).trim();
    await shoot(page, "check-health-link", false);
    await rule.getByRole("link", { name: "Show in the list" }).click();
    await expect(page).toHaveURL(new RegExp(`/webhook-groups\\?check=${check}$`));
    const chip = page.getByTestId("check-chip");
    await expect(chip).toContainText("Group serving live events has no notification emails");
    await expect(chip.getByTestId("check-chip-count")).toHaveText(count);
    await expect(page.getByTestId("check-note")).toContainText("in pages by id");
    // Every group listed is one without notification emails, as many as Health counts (one page of 20 at most here).
    const rows = page.locator("[data-testid=listing-results] tbody tr");
    await expect(rows).toHaveCount(Math.min(Number(count.replace(/,/g, "")), 20));
    await expect(page.getByTestId("export-menu")).toHaveCount(0);
    await shoot(page, "check-filter");

    // Keyboard: the chip's remove link, then Enter, and the whole list is back.
    await page.getByTestId("remove-check").focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/webhook-groups(\?view=none)?$/);
    await expect(page.getByTestId("check-chip")).toHaveCount(0);

    // Within ids the check does not find: its empty state, and the chip still says what filters.
    await page.goto(`/webhook-groups?ids=1&check=${check}`);
    await expect(page.getByTestId("check-empty")).toContainText("None of the chosen ids is found by this check");
    await expect(page.getByTestId("check-chip-count")).toHaveText("0");
    await shoot(page, "check-empty", false);

    // A crafted check= is a notice and the whole list, never an error page.
    await page.goto("/webhook-groups?check=%3Cscript%3E");
    await expect(page.getByText("is not one of Health's checks")).toBeVisible();
    await expect(page.getByTestId("listing-results")).toBeVisible();
  });

  test("an event id that is not in the account answers 404; a malformed one too", async ({ page }) => {
    for (const path of ["/events/999999", "/events/abc", "/events/0"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByTestId("event-not-found")).toBeVisible();
    }
  });

  test("bad coverage options fall back to the defaults and say so", async ({ page }) => {
    const response = await page.goto("/coverage?sort=__proto__&scope=everything&page=-3&q=%00%F0%9F%98%80");
    expect(response?.status()).toBe(200);
    await expect(page.getByText("is not a choice for sort")).toBeVisible();
    await expect(page.getByText("is not a choice for scope")).toBeVisible();
  });
});

test("an owner mutes a finding with a reason: it leaves the list, is listed as muted, counted out of the navigation and audited; unmuting brings it back", async ({
  page,
}) => {
  await signUpWithSandbox(page, "health");
  await page.goto("/health");
  await expect(page.getByTestId("health-counts")).toBeVisible();
  await shoot(page, "health");
  const badge = page.getByRole("navigation", { name: "Main" }).getByTestId("nav-health-count");
  // The navigation counts the errors of the last check (this one).
  await page.reload();
  const before = Number(await badge.textContent().then((text) => text?.match(/^\d+/)?.[0]));
  expect(before).toBeGreaterThan(0);

  const rule = page.locator('[data-testid="health-rule"][data-rule="plain-http-url"]');
  const finding = rule.getByTestId("finding").first();
  const message = (await finding.locator("p").first().textContent())!;
  expect(message).toContain("http://");
  await finding.getByText("Mute…").click();
  await finding.getByLabel("Why?").fill("Internal test endpoint, 🛠 no personal data");
  await finding.getByRole("button", { name: "Mute" }).click();

  await expect(page.getByTestId("finding").filter({ hasText: message })).toHaveCount(0);
  await page.getByTestId("mutes").locator("summary").first().click();
  const muted = page.getByTestId("muted-item").filter({ hasText: message });
  await expect(muted).toContainText("Internal test endpoint, 🛠 no personal data");
  await page.reload();
  await expect(badge).toHaveText(new RegExp(`^${before - 1}`));

  await page.goto("/audit");
  await expect(page.getByTestId("audit-sentence").filter({ hasText: "muted a health finding" }).first()).toBeVisible();

  await page.goto("/health");
  await page.getByTestId("mutes").locator("summary").first().click();
  await page.getByTestId("muted-item").filter({ hasText: message }).getByRole("button", { name: "Unmute" }).click();
  await expect(page.getByTestId("finding").filter({ hasText: message })).toHaveCount(1);
  await expect(page.getByTestId("muted-item")).toHaveCount(0);
});

test("required triggers: an owner requires registrant insert, update and delete; coverage marks failing events and Health lists them; the CSV export has the findings", async ({
  page,
}) => {
  await signUpWithSandbox(page, "required");
  await page.goto("/coverage");
  await page.getByTestId("required-triggers").locator("summary").click();
  for (const action of ["insert", "update", "delete"]) await page.getByLabel(`Registrant ${action}`).check();
  await page.getByRole("button", { name: "Save required triggers" }).click();
  await expect(page.getByText("Saved: 3 required triggers.")).toBeVisible();
  await page.goto("/coverage?only=failing");
  await expect(page.getByTestId("coverage-row").first()).toBeVisible();
  await expect(page.getByTestId("requirements").first()).toContainText("missing Registrant");

  await page.goto("/health");
  const required = page.locator('[data-testid="health-rule"][data-rule="required-trigger-missing"]');
  await expect(required.getByTestId("finding").first()).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByTestId("health-export").click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const [header, ...lines] = text.trim().split("\r\n");
  expect(header).toBe("severity,check,rule_id,finding,groups,webhooks,events,muted,mute_reason,how_to_fix");
  expect(lines.some((line) => line.includes("required-trigger-missing"))).toBe(true);
  // Never a header value: the planted shared credential's value is not in the file.
  expect(text).not.toMatch(/k-[A-Za-z0-9]{16}/);
});
