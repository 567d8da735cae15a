import { expect, test } from "@playwright/test";
import { ROLE_STATE } from "./helpers/config";
import { newTestUser, signUp } from "./helpers/auth";
import { shoot } from "./helpers/screenshots";
import { apiList, apiListAll, rowIds, SANDBOX_BASE_URL } from "./listing-helpers";

// Read-only listing tests share the lister (signed in once by e2e/roles.setup.ts, the sandbox's demo
// credentials saved); a test that changes credentials signs up a person of its own.
test.describe.configure({ timeout: 120_000 });
test.use({ storageState: ROLE_STATE.lister });

test.describe("webhook groups listing", () => {
  test("a filter built from a chip: add it, edit it, remove it, each applied at once", async ({ page }) => {
    await page.goto("/webhook-groups");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    const expected = await apiList("webhook-groups", "search=name%3D*contains*sync&per-page=200");
    expect(expected.items.length).toBeGreaterThan(0);

    // "+ Filter": field → condition → value, applied without an Apply button for the whole form.
    await page.getByTestId("add-filter").click();
    const editor = page.getByTestId("filter-editor");
    await expect(editor.getByLabel("Field")).toHaveValue("name");
    await expect(editor.getByLabel("Condition")).toHaveValue("=*contains*");
    await editor.getByLabel("Value").fill("sync");
    await editor.getByLabel("Value").press("Enter");
    await expect(page).toHaveURL(/\/webhook-groups\?filter=name%3D\*contains\*sync$/);
    const chip = page.getByTestId("filter-chip");
    await expect(chip).toHaveText(/Name\s*contains\s*sync/);
    await expect(page.getByTestId("listing-total")).toContainText(`of ${expected._meta.totalCount} webhook groups`);
    await page.getByTestId("per-page").selectOption("200");
    await expect(page).toHaveURL(/per-page=200/);
    await expect.poll(() => rowIds(page)).toEqual(expected.items.map((item) => item.id));

    // Click the chip to edit it: the negation lists the rest, and both together are the whole list.
    await chip.getByRole("button", { name: /^Edit filter/ }).click();
    await page.getByTestId("filter-editor").getByLabel("Condition").selectOption({ label: "does not contain" });
    await page.getByTestId("filter-editor").getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/filter=name%21%3D\*contains\*sync/);
    await expect(chip).toHaveText(/Name\s*does not contain\s*sync/);
    const negated = await apiList("webhook-groups", "search=name!%3D*contains*sync&per-page=200");
    await expect(page.getByTestId("listing-total")).toContainText(`of ${negated._meta.totalCount} webhook groups`);
    await expect.poll(() => rowIds(page)).toEqual(negated.items.map((item) => item.id));

    // A value the API cannot search for is refused in the editor, before any request.
    await chip.getByRole("button", { name: /^Edit filter/ }).click();
    await page.getByTestId("filter-editor").getByLabel("Value").fill("a&b");
    await page.getByTestId("filter-editor").getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("filter-editor").getByRole("alert")).toContainText("contains “&”");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("filter-editor")).toBeHidden();
    await expect(page).toHaveURL(/filter=name%21%3D\*contains\*sync/);

    // × removes it.
    await chip.getByRole("button", { name: /^Remove filter/ }).click();
    await expect(page).toHaveURL(/\/webhook-groups\?per-page=200$/);
    await expect(page.getByTestId("filter-chip")).toHaveCount(0);
  });

  test("typed filters on events: a status from its values, a date from a picker, match any", async ({ page }) => {
    await page.goto("/events?sort=id");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    await page.getByTestId("add-filter").click();
    let editor = page.getByTestId("filter-editor");
    await editor.getByLabel("Field").selectOption("status");
    // A status offers no "greater than": only what makes sense for it.
    await expect(editor.getByLabel("Condition").locator("option")).toHaveText(["is", "is not", "is one of", "is none of"]);
    await editor.getByLabel("Condition").selectOption({ label: "is one of" });
    await editor.getByLabel("live").check();
    await editor.getByLabel("draft").check();
    await editor.getByRole("button", { name: "Add filter" }).click();
    await expect(page).toHaveURL(/filter=status%3D\*in\*live%7Cdraft/);
    await expect(page.getByTestId("filter-chip")).toHaveText(/Status\s*is one of\s*live or draft/);

    await page.getByTestId("add-filter").click();
    editor = page.getByTestId("filter-editor");
    await editor.getByLabel("Field").selectOption("start_date");
    await expect(editor.getByLabel("Value")).toHaveAttribute("type", "date");
    await editor.getByLabel("Value").fill("2026-01-01");
    await editor.getByRole("button", { name: "Add filter" }).click();
    await expect(page.getByTestId("filter-chip").nth(1)).toHaveText(/Starts\s*on or after\s*1 Jan 2026/);
    const both = await apiList("events", "search=status%3D*in*live%7Cdraft%26start_date%3E%3D2026-01-01&sort=id&per-page=20");
    await expect(page.getByTestId("listing-total")).toContainText(`of ${both._meta.totalCount} events`);

    // With two conditions the AND/OR choice appears; "any" widens the list.
    await page.getByTestId("match-toggle").getByRole("button", { name: "Match any" }).click();
    await expect(page).toHaveURL(/searchCondition=or/);
    const either = await apiList("events", "search=status%3D*in*live%7Cdraft%26start_date%3E%3D2026-01-01&searchCondition=or&sort=id&per-page=20");
    await expect(page.getByTestId("listing-total")).toContainText(`of ${either._meta.totalCount} events`);
    await expect.poll(() => rowIds(page)).toEqual(either.items.map((item) => item.id));
  });

  test("the keyboard: / goes to the filters, f adds one, Esc closes it", async ({ page }) => {
    await page.goto("/webhook-groups?filter=name%3D*contains*sync");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    await page.locator("body").press("/");
    await expect(page.getByRole("button", { name: /^Edit filter: Name contains sync/ })).toBeFocused();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("f");
    await expect(page.getByTestId("filter-editor")).toBeVisible();
    await expect(page.getByTestId("filter-editor").getByLabel("Value")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("filter-editor")).toBeHidden();
    await expect(page.getByTestId("add-filter")).toBeFocused();
  });

  test("a submitted options form gets one plain redirect to the short address, never a page that refreshes itself", async ({ page }) => {
    // What the options form sends without JavaScript: every field, the defaults spelled out.
    const submitted =
      "/webhook-groups?fields=id&fields=name&fields=headers&fields=notification_emails&filter=name%3D*contains*sync&searchCondition=and&per-page=20&page=1&ids=";
    const answer = await page.request.get(submitted, { maxRedirects: 0 });
    expect(answer.status()).toBe(307);
    expect(new URL(answer.headers().location!, "http://portal.test").search).toBe("?filter=name%3D*contains*sync");

    const documents: number[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "document") documents.push(response.status());
    });
    await page.goto(submitted);
    await expect(page).toHaveURL(/\/webhook-groups\?filter=name%3D\*contains\*sync$/);
    await expect(page.getByTestId("listing-table")).toBeVisible();
    expect(documents).toEqual([307, 200]);
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
  });

  test("sort -id by clicking the header, page 2, 200 per page, and the back button", async ({ page }) => {
    await page.goto("/webhook-groups");
    await page.getByTestId("sort-id").click();
    await expect(page).toHaveURL(/sort=id(&|$)/);
    await page.getByTestId("sort-id").click();
    await expect(page).toHaveURL(/sort=-id/);
    await expect(page.getByRole("columnheader", { name: /ID/ })).toHaveAttribute("aria-sort", "descending");
    const first = await apiList("webhook-groups", "sort=-id");
    await expect.poll(() => rowIds(page)).toEqual(first.items.map((item) => item.id));

    await page.getByTestId("page-next").click();
    await expect(page).toHaveURL(/page=2/);
    const second = await apiList("webhook-groups", "sort=-id&page=2");
    await expect.poll(() => rowIds(page)).toEqual(second.items.map((item) => item.id));
    await expect(page.getByTestId("listing-total")).toContainText(`21–40 of ${second._meta.totalCount}`);

    // Rows per page lives in the pagination bar and applies at once, from page 1.
    await page.getByTestId("per-page").selectOption("200");
    await expect(page).toHaveURL(/\?sort=-id&per-page=200$/);
    const all = await apiList("webhook-groups", "sort=-id&per-page=200");
    // 140 rows: slow on a loaded machine.
    await expect.poll(() => rowIds(page), { timeout: 30_000 }).toEqual(all.items.map((item) => item.id));
    expect(all.items.length).toBe(all._meta.totalCount);

    await page.goBack();
    await expect(page).toHaveURL(/page=2/);
    await expect.poll(() => rowIds(page)).toEqual(second.items.map((item) => item.id));
  });

  test("an ids list: precise messages for a bad one, exactly those rows for a good one", async ({ page }) => {
    await page.goto("/webhook-groups");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    await page.getByTestId("ids-control").click();
    const box = page.getByTestId("ids-input");
    await box.fill("12, abc\n0 7.5");
    await page.getByRole("button", { name: "Apply ids" }).click();
    const errors = page.getByTestId("ids-errors");
    await expect(errors).toContainText("Entry 2 (“abc”) is not a number");
    await expect(errors).toContainText("Entry 3 (“0”) is not a positive integer");
    await expect(errors).toContainText("Entry 4 (“7.5”) is not a whole number");
    // Nothing was applied, and the box keeps the text as typed, so it can be corrected.
    await expect(page).toHaveURL(/\/webhook-groups$/);
    await expect(box).toHaveValue("12, abc\n0 7.5");

    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(" ");
    await box.fill(many);
    await page.getByRole("button", { name: "Apply ids" }).click();
    await expect(page.getByTestId("ids-errors")).toContainText("101 different ids were given; at most 100");

    // Three ids that exist, pasted with mixed separators and a duplicate.
    const some = (await apiList("webhook-groups", "sort=-id")).items.slice(0, 3).map((item) => Number(item.id));
    await box.fill(`${some[0]}\n${some[1]}, ${some[2]} ${some[1]}`);
    await page.getByRole("button", { name: "Apply ids" }).click();
    await expect(page).toHaveURL(new RegExp(`ids=${some.join("%2C")}`));
    await expect(page.getByTestId("ids-control")).toHaveText(/IDs · 3/);
    const expected = await apiList("webhook-groups", `ids=${some.join(",")}`);
    expect(expected.items.length).toBe(3);
    await expect.poll(() => rowIds(page)).toEqual(expected.items.map((item) => item.id));

    // A crafted address with a bad list says so beside the table.
    await page.goto("/webhook-groups?ids=1,x");
    await expect(page.getByTestId("ids-url-errors")).toContainText("Entry 2 (“x”) is not a number");
    await expect(page.getByTestId("ids-control")).toHaveText(/IDs: not applied/);
  });

  test("webhooks shown, and one group with its header names and no values", async ({ page }) => {
    await page.goto("/webhook-groups");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    await page.getByTestId("columns-menu").click();
    await page.getByTestId("show-webhooks").check();
    await expect(page).toHaveURL(/expand=webhooks/);
    const expected = await apiList("webhook-groups", "expand=webhooks");
    const withWebhooks = expected.items.find((item) => Array.isArray(item.webhooks) && item.webhooks.length > 0)!;
    const hooks = withWebhooks.webhooks as { name: string; url: string; enabled: boolean }[];
    // One line per webhook under its group, in a list named after it: its name, where it posts,
    // and whether it is disabled.
    const lines = page.getByRole("list", { name: `Webhooks of ${withWebhooks.name}`, exact: true }).getByRole("listitem");
    await expect(lines).toHaveCount(hooks.length);
    for (const [at, hook] of hooks.entries()) {
      await expect(lines.nth(at)).toContainText(hook.name);
      await expect(lines.nth(at)).toContainText(hook.url);
      if (hook.enabled) await expect(lines.nth(at)).not.toContainText("disabled");
      else await expect(lines.nth(at)).toContainText("· disabled");
    }
    // A disabled webhook says so on its line.
    type Hook = { name: string; enabled: boolean };
    const withDisabled = expected.items.find((item) => (item.webhooks as Hook[]).some((hook) => !hook.enabled));
    if (withDisabled) {
      const at = (withDisabled.webhooks as Hook[]).findIndex((hook) => !hook.enabled);
      const list = page.getByRole("list", { name: `Webhooks of ${withDisabled.name}`, exact: true });
      await expect(list.getByRole("listitem").nth(at)).toContainText("· disabled");
    }
    await page.keyboard.press("Escape");
    await shoot(page, "listing-webhooks", false);

    const withHeaders = expected.items.find((item) => Array.isArray(item.headers) && item.headers.length > 0)!;
    const header = (withHeaders.headers as { key: string; value: string }[])[0];
    await page.goto(`/webhook-groups/${withHeaders.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(String(withHeaders.name));
    // Names only: the value stays on the server until "Reveal" asks for it (e2e/header-reveal.spec.ts).
    await expect(
      page
        .getByTestId("group-details")
        .getByRole("button", { name: `Reveal the value of ${header.key}` })
        .first(),
    ).toBeVisible();
    await expect(page.getByTestId("group-details").getByTestId("header-value")).toHaveCount(0);
    expect(await page.content()).not.toContain(header.value);
  });

  test("a group's page shows every webhook with its fields and the events it fires for, by name", async ({ page }) => {
    type Hook = { id: number; name: string; url: string; any_event: boolean; event_ids: number[]; trigger_object: string; enabled: boolean };
    const groups = (await apiList("webhook-groups", "expand=webhooks&per-page=200")).items as { id: number; webhooks: Hook[] }[];
    // A group with a webhook tied to named events, and one with a webhook that fires for every event.
    const named = groups.find((group) => group.webhooks.some((hook) => !hook.any_event && hook.event_ids.length > 0))!;
    const everyEvent = groups.find((group) => group.webhooks.some((hook) => hook.any_event))!;
    expect(named && everyEvent).toBeTruthy();

    const hook = named.webhooks.find((each) => !each.any_event && each.event_ids.length > 0)!;
    const events = (await apiList("events", `ids=${hook.event_ids.join(",")}&fields=id,name`)).items as { id: number; name: string }[];
    await page.goto(`/webhook-groups/${named.id}`);
    await expect(page.getByTestId("webhook-card")).toHaveCount(named.webhooks.length);
    const card = page.locator(`[data-testid="webhook-card"][data-webhook-id="${hook.id}"]`);
    await expect(card.getByRole("heading", { name: hook.name, exact: true })).toBeVisible();
    await expect(card).toContainText(hook.url);
    await expect(card.getByTestId("webhook-fires-on")).toContainText(hook.trigger_object);
    // Names arrive after the page (streamed); each links to the events listing narrowed to it.
    for (const event of events) {
      const link = card.getByRole("link", { name: event.name, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute("href", `/events?ids=${event.id}`);
    }
    await expect(card).not.toContainText("Unknown");
    await shoot(page, "group-page");

    const every = everyEvent.webhooks.find((each) => each.any_event)!;
    await page.goto(`/webhook-groups/${everyEvent.id}`);
    // Webhook names repeat within a group: the card is picked by the webhook's id.
    const everyCard = page.locator(`[data-testid="webhook-card"][data-webhook-id="${every.id}"]`);
    await expect(everyCard.getByTestId("webhook-events")).toHaveText("Every event");
    await page.getByTestId("data-age").click();
    await expect(page.getByTestId("refresh-form").getByRole("button")).toHaveText("Refresh (1 credit)");
  });

  test("an export whose files match the API's data row for row", async ({ page }) => {
    await page.goto("/webhook-groups?sort=-id&expand=webhooks");
    const expected = await apiListAll("webhook-groups", "sort=-id&expand=webhooks");

    // Export is a menu of the toolbar.
    await page.getByTestId("export-menu").click();
    const jsonDownload = page.waitForEvent("download");
    await page.getByTestId("export-json").click();
    const json = JSON.parse(await (await (await jsonDownload).createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8")));
    // Header values are hidden unless asked for (they hold API keys); their names stay.
    const hidden = (headers: unknown) => (headers as { key: string }[]).map((header) => ({ key: header.key, value: "[hidden]" }));
    expect(json).toEqual(
      expected.map((item) => expect.objectContaining({ id: item.id, name: item.name, headers: hidden(item.headers), notification_emails: item.notification_emails })),
    );
    expect(json.map((item: { webhooks: unknown[] }) => item.webhooks.length)).toEqual(expected.map((item) => (item.webhooks as unknown[]).length));
    await expect(page.getByTestId("export-status")).toContainText(`Exported ${expected.length} rows. Header values are hidden.`);

    await page.getByLabel("Include header values").check();
    const csvDownload = page.waitForEvent("download");
    await page.getByTestId("export-csv").click();
    const csv = await (await (await csvDownload).createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
    const { parseCsv } = await import("@/lib/csv");
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual(["id", "name", "headers", "notification_emails", "webhooks"]);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(expected.map((item) => item.id));
    expect(rows.slice(1).map((r) => r[1].replace(/^'(?=[=+\-@])/, ""))).toEqual(expected.map((item) => item.name));
    expect(rows.slice(1).map((r) => JSON.parse(r[2]))).toEqual(expected.map((item) => item.headers));
    await expect(page.getByTestId("export-status")).toContainText("Header values are included.");
    // Asking for them is on the team's record.
    await page.goto("/audit");
    await expect(page.getByTestId("audit-sentence").filter({ hasText: "exported with header values" }).first()).toBeVisible();
  });
});

test.describe("webhooks listing", () => {
  test("the search box finds by name, URL or host what the palette finds, with the same count; a text the EMS cannot search for says why", async ({ page }) => {
    const sample = await apiList("webhooks", "fields=id,url&per-page=1&sort=id");
    // A word of a host, as someone looking for "their Zapier hooks" would type it.
    const word = new URL(String(sample.items[0]!.url)).host.split(".").at(-2)!;
    const search = (field: string) => `search=${encodeURIComponent(`${field}=*contains*${word}`)}`;
    const expected = (await apiList("webhooks", `${search("name")}&${search("url")}&searchCondition=or&per-page=1`))._meta.totalCount;
    expect(expected).toBeGreaterThan(0);

    await page.goto("/webhooks?sort=-id");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    const box = page.getByTestId("listing-search");
    await box.fill(word);
    await box.press("Enter");
    await expect(page).toHaveURL(new RegExp(`filter=name%3D\\*contains\\*${word}&filter=url%3D\\*contains\\*${word}&searchCondition=or&sort=-id$`));
    await expect(page.getByTestId("listing-total")).toContainText(` of ${expected.toLocaleString("en-US")} webhooks`);
    await expect(box).toHaveValue(word);

    // The palette counts the same records.
    await page.keyboard.press("Control+K");
    await page.getByTestId("palette-input").fill(word);
    if (expected > 8) await expect(page.getByRole("option", { name: `All ${expected.toLocaleString("en-US")} matching webhooks` })).toBeVisible({ timeout: 15_000 });
    else await expect(page.getByTestId("palette-webhook")).toHaveCount(expected, { timeout: 15_000 });
    await page.keyboard.press("Escape");

    // "&" cannot be searched for: said beside the box, the text kept, the list unchanged.
    await box.fill(`${word}&co`);
    await box.press("Enter");
    await expect(page.getByTestId("listing-search-problem")).toHaveText("The EMS API cannot search for “&”: search for the part before or after it.");
    await expect(box).toHaveValue(`${word}&co`);
    await expect(page).toHaveURL(/searchCondition=or&sort=-id$/);

    // Escape clears the search, keeping the sort.
    await box.fill(word);
    await box.press("Escape");
    await expect(page).toHaveURL(/\/webhooks\?sort=-id$/);
    await expect(box).toHaveValue("");
  });
});

test.describe("the table", () => {
  test("sort by two columns: click, shift-click, the sort in words, then off", async ({ page }) => {
    await page.goto("/events");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    // With no sort asked for, events come in the order they start, said in words, and the URL stays bare.
    await expect(page.getByTestId("sort-menu")).toContainText("Starts, oldest first");
    await expect(page.getByRole("columnheader", { name: /Starts/ })).toHaveAttribute("aria-sort", "ascending");
    const byStart = await apiList("events", "sort=start_date&fields=id");
    await expect.poll(() => rowIds(page)).toEqual(byStart.items.map((item) => item.id));
    await expect(page).toHaveURL(/\/events$/);
    // The webhook groups keep the API's own order, marked on the ID column.
    await page.goto("/webhook-groups");
    await expect(page.getByTestId("default-order-mark")).toBeVisible();
    await expect(page.getByTestId("sort-menu")).toContainText("Default order (ID, lowest first)");
    await page.goto("/events");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");

    await page.getByTestId("sort-status").click();
    await expect(page).toHaveURL(/\/events\?sort=status$/);
    await page.getByTestId("sort-start_date").click({ modifiers: ["Shift"] });
    await expect(page).toHaveURL(/\/events\?sort=status%2Cstart_date$/);
    await page.getByTestId("sort-start_date").click({ modifiers: ["Shift"] });
    await expect(page).toHaveURL(/\/events\?sort=status%2C-start_date$/);
    await expect(page.getByTestId("sort-menu")).toContainText("Status A–Z; then Starts, newest first");
    const expected = await apiList("events", "sort=status,-start_date&fields=id");
    await expect.poll(() => rowIds(page)).toEqual(expected.items.map((item) => item.id));
    await expect(page.getByRole("columnheader", { name: /Status/ })).toHaveAttribute("aria-sort", "ascending");

    // The sort menu lists the levels; flipping one there is the same as on the header.
    await page.getByTestId("sort-menu").click();
    await expect(page.getByTestId("sort-levels").getByRole("listitem")).toHaveText([/Sort\s*Status\s*A–Z/, /then\s*Starts\s*newest first/]);
    await page.getByRole("button", { name: /^Status: A–Z; change to Z–A/ }).click();
    await expect(page).toHaveURL(/\/events\?sort=-status%2C-start_date$/);

    // Clicking the leading column again turns it off; the next level leads.
    await page.keyboard.press("Escape");
    await page.getByTestId("sort-status").click();
    await expect(page).toHaveURL(/\/events\?sort=-start_date$/);
  });

  test("columns: hide, reorder, never none; rows link to their page", async ({ page }) => {
    await page.goto("/webhook-groups");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    await page.getByTestId("columns-menu").click();
    const shown = page.getByTestId("shown-columns");
    const box = (name: string) => shown.getByRole("checkbox", { name, exact: true });
    // A column unticked moves to the hidden list at once (a new checkbox): click, not uncheck.
    await box("Headers").click();
    await expect(page).toHaveURL(/fields=id%2Cname%2Cnotification_emails/);
    await box("Notification emails").click();
    await expect(page).toHaveURL(/fields=id%2Cname$/);
    await page.getByRole("button", { name: "Move Name left" }).click();
    await expect(page).toHaveURL(/fields=name%2Cid$/);
    // "Contents" (what is in each group) always follows the chosen columns.
    await expect(page.getByRole("columnheader")).toHaveText([/Name/, /ID/, /^Contents$/]);
    await box("ID").click();
    await expect(page).toHaveURL(/fields=name$/);
    // The last column cannot be hidden: a table of no columns would silently become the default one.
    await expect(box("Name")).toBeDisabled();
    await expect(page.getByText("At least one column is shown.")).toBeVisible();
    await page.keyboard.press("Escape");

    // A click anywhere on a row opens that group's page.
    await page.goto("/webhook-groups");
    const first = page.getByTestId("listing-row").first();
    await expect(first).toBeVisible();
    const id = await first.getAttribute("data-id");
    // The row's link lies over the whole row, so the pointer lands on it, not on the cell.
    const cell = (await first.locator('[data-label="Notification emails"]').boundingBox())!;
    await page.mouse.click(cell.x + cell.width / 2, cell.y + cell.height / 2);
    await expect(page).toHaveURL(new RegExp(`/webhook-groups/${id}$`));
  });

  test("the rows on screen stay, marked as loading, until the next ones arrive", async ({ page }) => {
    await page.goto("/webhook-groups");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    const before = await rowIds(page);
    // Hold the next page's server answer back, to look at the page while it waits.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/webhook-groups\?page=2/, async (route) => {
      await held;
      await route.continue();
    });
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(request.url());
    });
    await page.getByTestId("page-next").click();
    await expect(page.getByTestId("listing-area")).toHaveAttribute("aria-busy", "true");
    await expect(page.getByTestId("listing-loading")).toHaveCount(0);
    expect(await rowIds(page)).toEqual(before);
    release();
    await expect(page.getByTestId("listing-area")).not.toHaveAttribute("aria-busy", "true");
    await expect.poll(() => rowIds(page)).not.toEqual(before);
    expect(documents).toEqual([]);
  });

  test("rows the portal already has go out with the page's first bytes, not in a streamed part after it", async ({ page }) => {
    // The first view asks the API and stores the answer; the second reads the stored one.
    for (let view = 0; view < 2; view++) await page.request.get("/webhook-groups?sort=-name");
    const html = await (await page.request.get("/webhook-groups?sort=-name")).text();
    const table = html.indexOf('data-testid="listing-table"');
    expect(table).toBeGreaterThan(0);
    // A part that streams in later is written as a hidden segment (`<div hidden id="S:0">`) at the end.
    const firstStreamed = html.search(/<div hidden id="S:/);
    expect(firstStreamed === -1 || firstStreamed > table, "the table came in a streamed segment").toBe(true);
    expect(html.indexOf('data-testid="listing-loading"')).toBe(-1);
  });

  test("at phone width each row is two lines (name, status pill, dates), and sorting is in the sort menu", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/events");
    const row = page.getByTestId("listing-row").first();
    await expect(row).toBeVisible();
    const id = await row.getAttribute("data-id");
    const first = (await apiList("events", `fields=id,name,status,start_date,start_time,end_date,end_time,timezone&search=id%3D${id}`)).items[0]!;
    await expect(page.getByRole("columnheader").first()).toBeHidden();
    // Not a card of labelled values: the name as the title, the status as a pill, the dates as one line.
    await expect(row.getByRole("link", { name: String(first.name), exact: true })).toBeVisible();
    await expect(row.getByTestId("phone-status")).toHaveText(String(first.status).charAt(0).toUpperCase() + String(first.status).slice(1));
    await expect(row.locator(".phone-detail")).toContainText(String(first.start_date));
    await expect(row.locator('[data-label="Status"]')).toBeHidden();
    expect((await row.boundingBox())!.height).toBeLessThanOrEqual(80);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId("sort-menu").click();
    // Events come by start date already: a name is the next level.
    await page.getByLabel("Then by").selectOption("name");
    await expect(page).toHaveURL(/\/events\?sort=start_date%2Cname$/);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("one GET form does it all: a filter written as the API writes it, rows per page", async ({ page }) => {
      await page.goto("/webhook-groups?sort=-id");
      // The form is on a page of its own, with the list's options; it comes back to the list.
      await page.getByTestId("listing-options-link").click();
      await expect(page).toHaveURL(/\/webhook-groups\/options\?sort=-id$/);
      await shoot(page, "listing-options-no-js");
      const form = page.getByTestId("listing-controls");
      await form.getByLabel("Filter 1").fill("name=*contains*sync");
      await form.getByLabel("Rows per page").selectOption("50");
      await form.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(/\/webhook-groups\?filter=name%3D\*contains\*sync&sort=-id&per-page=50$/);
      const expected = await apiList("webhook-groups", "search=name%3D*contains*sync&sort=-id&per-page=50");
      await expect.poll(() => rowIds(page)).toEqual(expected.items.map((item) => item.id));
      // Sort headers are plain links.
      await page.getByTestId("sort-name").click();
      await expect(page).toHaveURL(/sort=name/);
    });

    test("the options page takes a hostile address calmly: the markup typed is text in its box, nonsense options fall back", async ({ page }) => {
      const hostile = 'name=*contains*<img src=x onerror="document.title=1">';
      const response = await page.goto(`/webhooks/options?filter=${encodeURIComponent(hostile)}&sort=nope&per-page=-5&fields=..%2Fx&ids=1,x`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { name: "Webhooks: options" })).toBeVisible();
      const form = page.getByTestId("listing-controls");
      await expect(form.getByLabel("Filter 1")).toHaveValue(hostile);
      await expect(form.getByLabel("Rows per page")).toHaveValue("20");
      expect(await page.locator("img[src=x]").count()).toBe(0);
      expect(await page.title()).not.toBe("1");
    });
  });
});

test.describe("shared answers", () => {
  test("the page says how old its rows are; a refresh, which says its cost, asks the API again", async ({ page }) => {
    // A query no other test opens: its answer is this test's own.
    await page.goto("/webhook-groups?sort=-name&per-page=10");
    await expect(page.getByTestId("listing-table")).toBeVisible();
    await page.waitForTimeout(1_200);
    await page.reload();
    // Within the sharing window: the stored answer, with its age.
    await expect(page.getByTestId("data-age-value")).toHaveText(/^\d+ s ago$/);
    // One small indicator in the toolbar; its panel holds the refresh and the budget.
    await page.getByTestId("data-age").click();
    await expect(page.getByTestId("rate-budget")).toContainText(/API budget: [\d,]+ of [\d,]+ credits left/);
    const refresh = page.getByRole("button", { name: "Refresh (10 credits)" });
    await refresh.click();
    await expect(page.getByTestId("data-age-value")).toHaveText("just now");
    await expect(page.getByTestId("listing-table")).toBeVisible();
  });
});

test.describe("events listing", () => {
  test("default columns by name, status badges, dates in the event's zone, a date filter", async ({ page }) => {
    await page.goto("/events?sort=id");
    const expected = await apiList("events", "fields=id,name,status,start_date,start_time,end_date,end_time,timezone&sort=id");
    await expect.poll(() => rowIds(page)).toEqual(expected.items.map((item) => item.id));
    const first = expected.items[0];
    const row = page.getByTestId("listing-row").first();
    // The API's lowercase value ("live") as a labelled pill ("Live").
    await expect(row.getByTestId("status-badge")).toHaveText(String(first.status).charAt(0).toUpperCase() + String(first.status).slice(1));
    await expect(row.locator('[data-label="Starts"]')).toContainText(`${first.start_date} ${String(first.start_time).slice(0, 5)}`);
    await expect(row.locator('[data-label="Time zone"]')).toHaveText(String(first.timezone));

    await page.goto("/events?filter=start_date%3E%3D2026-01-01&filter=status%3Dlive&sort=-start_date&per-page=200");
    const filtered = await apiList("events", "search=start_date%3E%3D2026-01-01%26status%3Dlive&sort=-start_date&per-page=200");
    await expect.poll(() => rowIds(page)).toEqual(filtered.items.map((item) => item.id));
  });
});

test.describe("credentials states", () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  test("no credentials link to Settings; wrong ones are refused there with the reason, keeping what was typed", async ({ page }) => {
    const user = newTestUser("wrongcreds");
    await signUp(page, user);
    await page.goto("/webhook-groups");
    await expect(page.getByTestId("state-no-credentials")).toBeVisible();
    await expect(page.getByTestId("state-no-credentials").getByRole("link", { name: "Add them in Settings" })).toHaveAttribute("href", "/settings/credentials");

    await page.goto("/settings/credentials");
    await page.getByLabel("Base URL").fill(SANDBOX_BASE_URL);
    await page.getByLabel("Consumer key").fill("ems_demo_key");
    await page.getByLabel("Consumer secret").fill("not the secret");
    await page.getByRole("button", { name: "Save credentials" }).click();
    await expect(page.getByTestId("credential-form-error")).toHaveText(
      "The EMS API rejected this consumer key and secret, so they were not saved. Check both and try again.",
    );
    await expect(page.getByTestId("no-credentials")).toBeVisible();
    await expect(page.getByLabel("Consumer key")).toHaveValue("ems_demo_key");
    await expect(page.getByLabel("Base URL")).toHaveValue(SANDBOX_BASE_URL);
    await page.goto("/webhook-groups");
    await expect(page.getByTestId("state-no-credentials")).toBeVisible();
  });
});
