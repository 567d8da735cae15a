import { expect, test, type Page } from "@playwright/test";
import { parseCsv } from "@/lib/csv";
import { newTestUser, signUp } from "./helpers/auth";
import { shoot } from "./helpers/screenshots";
import { expectNoSeriousViolations } from "./helpers/axe";

async function createInvitationLink(page: Page): Promise<string> {
  await page.goto("/team");
  await page.getByLabel("Role", { exact: true }).selectOption({ label: "Member" });
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = page.getByTestId("invitation-link");
  await expect(link).toHaveValue(/\/invite\/[A-Za-z0-9_-]{43}$/);
  return link.inputValue();
}

/** Document loads of the page from now on: a filter or a page change must make none (client navigation). */
function countDocuments(page: Page): () => number {
  let documents = 0;
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents++;
  });
  return () => documents;
}

const sentences = (page: Page) => page.getByTestId("audit-sentence");

test("an owner reads the audit log in sentences with names, filters it by person, action and date, pages through it and downloads it as CSV", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const ada = newTestUser("Ada");
  await signUp(page, ada);
  const link = await createInvitationLink(page);

  // Bob joins by the link, in a browser of his own.
  const bobUser = newTestUser("Bob");
  // A long name with letters beyond ASCII: it wraps, and is named in every sentence as it is.
  const bob = { ...bobUser, name: `Bob Builder-Ünïcödé Øster-Wolfeschlegelsteinhausen ${bobUser.email.slice(4, 12)}` };
  const bobContext = await browser.newContext();
  await signUp(await bobContext.newPage(), bob, { invite: link.slice(link.indexOf("/invite/") + "/invite/".length) });
  await bobContext.close();

  // Ada changes Bob's role back and forth: enough entries for a second page.
  const CHANGES = 46;
  await page.goto("/team");
  const row = page.getByTestId("member-row").filter({ hasText: bob.email });
  for (let i = 0; i < CHANGES; i++) {
    const to = i % 2 === 0 ? "Admin" : "Member";
    await row.getByLabel(`Role for ${bob.name}`).selectOption({ label: to });
    await row.getByRole("button", { name: "Save role" }).click();
    await expect(row.getByTestId("member-role")).toHaveText(to);
  }

  await page.goto("/audit");
  await expect(sentences(page).first()).toHaveText(`${ada.name} changed ${bob.name} from Admin to Member`);
  await expect(page.getByTestId("audit-row").first().locator("time")).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}( UTC)?$/);
  await expect(page.getByTestId("audit-sentence").filter({ hasText: `${bob.name} joined the team as Member` })).toHaveCount(1);
  // The Apply button is for browsers without JavaScript: here, every change applies at once.
  await expect(page.getByRole("button", { name: "Apply" })).toHaveCount(0);
  const documents = countDocuments(page);

  // Paging: 50 a page, "x–y of N", newest first.
  const range = page.getByTestId("audit-range");
  const total = Number((await range.innerText()).match(/of ([\d,]+)$/)![1].replace(",", ""));
  expect(total).toBeGreaterThan(50);
  await expect(range).toHaveText(`1–50 of ${total}`);
  await expect(page.getByTestId("audit-row")).toHaveCount(50);
  await page.getByRole("link", { name: "Next", exact: true }).click();
  await expect(range).toHaveText(`51–${total} of ${total}`);
  await expect(page).toHaveURL(/\/audit\?page=2$/);
  await expect(page.getByTestId("audit-row")).toHaveCount(total - 50);
  await expect(sentences(page).last()).toHaveText(new RegExp(`^${ada.name} created an account`));
  await page.getByRole("link", { name: "Previous", exact: true }).click();
  await expect(range).toHaveText(`1–50 of ${total}`);

  // By action, in words.
  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Joined the team" });
  await expect(page).toHaveURL(/\/audit\?action=team\.joined$/);
  await expect(sentences(page)).toHaveText([`${bob.name} joined the team as Member`]);
  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Changed a role" });
  await expect(range).toHaveText(`1–${CHANGES} of ${CHANGES}`);
  await expect(page.getByTestId("audit-count")).toContainText(`${CHANGES} entries match these filters`);

  // By person: what Bob did and what was done to him.
  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Any action" });
  await page.getByLabel("Person").selectOption({ label: `${bob.name} (${bob.email.toLowerCase()})` });
  await expect(page).toHaveURL(/\/audit\?person=[\w-]+$/);
  await expect(range).not.toHaveText(`1–50 of ${total}`);
  for (const text of await sentences(page).allInnerTexts()) expect(text).toContain(bob.name);
  await expect(
    sentences(page)
      .filter({ hasText: `${bob.name} signed in` })
      .first(),
  ).toBeVisible();

  // By date, both ends included (UTC): today has them all, tomorrow nothing.
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Person").selectOption({ label: "Everyone" });
  await page.getByLabel("From (UTC)").fill(today);
  await page.getByLabel("To (UTC, included)").fill(today);
  await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}$`));
  await expect(range).toHaveText(`1–50 of ${total}`);
  // A start after the end moves the end along with it.
  await page.getByLabel("From (UTC)").fill(tomorrow);
  await expect(page.getByLabel("To (UTC, included)")).toHaveValue(tomorrow);
  await expect(page).toHaveURL(new RegExp(`from=${tomorrow}&to=${tomorrow}$`));
  await expect(page.getByTestId("audit-empty")).toContainText("No entries match these filters.");
  await page.getByTestId("audit-empty").getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(range).toHaveText(`1–50 of ${total}`);
  await expect(page.getByLabel("From (UTC)")).toHaveValue("");
  expect(documents()).toBe(0);

  // The CSV of what the filters show.
  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Changed a role" });
  await expect(range).toHaveText(`1–${CHANGES} of ${CHANGES}`);
  const downloading = page.waitForEvent("download");
  await page.getByTestId("audit-export").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = Buffer.concat(await (await download.createReadStream()).toArray()).toString("utf8");
  const rows = parseCsv(csv);
  expect(rows[0]).toEqual(["time_utc", "actor_name", "actor_email", "action", "sentence"]);
  expect(rows).toHaveLength(CHANGES + 1);
  expect(rows[1].slice(1)).toEqual([ada.name, ada.email.toLowerCase(), "Changed a role", `${ada.name} changed ${bob.name} from Admin to Member`]);
  expect(rows[CHANGES].slice(1)).toEqual([ada.name, ada.email.toLowerCase(), "Changed a role", `${ada.name} changed ${bob.name} from Member to Admin`]);
  for (const r of rows.slice(1)) expect(r[0]).toMatch(new RegExp(`^${today}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$`));

  // Each picture once the entries are on screen (React reveals streamed content a moment after the load event).
  const pictures: [string, string, boolean][] = [
    ["/audit", "audit", true],
    ["/audit", "audit-top", false],
    ["/audit?page=2", "audit-page2", false],
    [`/audit?action=team&from=${today}`, "audit-filtered", false],
    ["/audit?action=nope", "audit-notice", false],
  ];
  for (const [path, name, fullPage] of pictures) {
    await page.goto(path);
    await expect(page.getByTestId("audit-row").first()).toBeVisible();
    await shoot(page, name, fullPage);
  }
  // With filters, a notice and the phone layout: nothing serious for assistive technology.
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/audit?action=team&from=${today}&to=x`);
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  // The page's own content: the shared header's logo link has no text at phone width (the layout's, reported).
  await expectNoSeriousViolations(page, { include: "main" });
});

test("a crafted address gets its reasons, never an error; without JavaScript the filters are a plain GET form", async ({ page, browser }) => {
  const owner = newTestUser("NoScript");
  await signUp(page, owner);
  // The same session in a browser without JavaScript.
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const plain = await context.newPage();

  const crafted = await plain.goto("/audit?page=99999&from=2026-02-30&person=ck-not-a-member&action=teamRoleChanged&to=x&to=y");
  expect(crafted!.status()).toBe(200);
  await expect(plain.getByTestId("audit-notices").locator("li")).toHaveText([
    "That is not an action the log records. It was ignored.",
    "The start date is not a date (use the date picker, or YYYY-MM-DD). It was ignored.",
    "The end date was given more than once, so it was ignored.",
    "That person is not in this team's log, so the person filter was ignored.",
    "There is no page 99,999: this is the last page, 1.",
  ]);
  // Text, not visibility: without JavaScript, what streams in behind the portal's loading.tsx
  // boundaries stays in the document but hidden (React reveals it with a script), on every page.
  await expect(plain.getByTestId("audit-sentence")).toHaveText([`${owner.name} signed in`, `${owner.name} created an account`]);
  const refused = await plain.request.get("/api/audit/export?person=ck-not-a-member");
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { error: string }).error).toContain("not in this team's log");

  // The filters are a plain GET form to /audit: what a browser without JavaScript sends, the server answers.
  await plain.goto("/audit");
  const form = plain.getByTestId("audit-filters");
  await expect(form).toHaveAttribute("method", "get");
  await expect(form).toHaveAttribute("action", "/audit");
  await expect(form.locator("button[type=submit]")).toHaveText("Apply");
  await expect(form.locator("select, input")).toHaveCount(4);
  expect(await form.locator("select, input").evaluateAll((fields) => fields.map((f) => (f as HTMLInputElement).name))).toEqual(["person", "action", "from", "to"]);
  await plain.goto("/audit?person=&action=auth.sign_up&from=&to=");
  await expect(sentences(plain)).toHaveText([`${owner.name} created an account`]);
  await expect(plain.getByLabel("Action", { exact: true })).toHaveValue("auth.sign_up");
  await context.close();
});
