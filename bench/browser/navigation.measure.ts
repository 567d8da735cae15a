import { expect, test, type Page } from "@playwright/test";
import { ROLE_STATE } from "../../e2e/helpers/config";
import { apiList } from "../../e2e/listing-helpers";

/**
 * What a person waits for when they change a listing: from the click to the new rows on screen,
 * and how many document and RSC requests it took (issue target: one RSC request, no document, new
 * rows in under 200 ms). Ten of each; the table gives the median and the slowest.
 */
test.use({ storageState: ROLE_STATE.lister });
test.setTimeout(300_000);

const RUNS = 10;

type Sample = { ms: number; documents: number; rsc: number };

async function firstRowId(page: Page): Promise<number | null> {
  const id = await page
    .getByTestId("listing-row")
    .first()
    .getAttribute("data-id")
    .catch(() => null);
  return id === null ? null : Number(id);
}

/** Runs `act` and waits until the first row is `expectedFirstId`; counts the requests on the way. */
async function measure(page: Page, act: () => Promise<void>, expectedFirstId: number): Promise<Sample> {
  let documents = 0;
  let rsc = 0;
  const count = (request: import("@playwright/test").Request) => {
    if (request.resourceType() === "document") documents++;
    else if (request.headers()["rsc"] === "1") rsc++;
  };
  page.on("request", count);
  const started = performance.now();
  await act();
  await expect.poll(() => firstRowId(page), { intervals: [5], timeout: 30_000 }).toBe(expectedFirstId);
  const ms = performance.now() - started;
  page.off("request", count);
  return { ms, documents, rsc };
}

function summary(name: string, samples: Sample[]): string {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const docs = samples.reduce((sum, s) => sum + s.documents, 0) / samples.length;
  const rsc = samples.reduce((sum, s) => sum + s.rsc, 0) / samples.length;
  return `${name.padEnd(40)}${median.toFixed(0).padStart(8)}${sorted.at(-1)!.toFixed(0).padStart(8)}${docs.toFixed(1).padStart(11)}${rsc.toFixed(1).padStart(6)}`;
}

test("listing navigation: click to new rows", async ({ page }) => {
  const ascending = (await apiList("webhook-groups", "sort=id")).items[0]!.id as number;
  const byName = (await apiList("webhook-groups", "sort=name")).items[0]!.id as number;
  const secondPage = (await apiList("webhook-groups", "sort=id&page=2")).items[0]!.id as number;
  const filtered = (await apiList("webhook-groups", "search=name%3D*contains*a&sort=id")).items[0]!.id as number;

  const rows: string[] = [];

  // Sorting by a header (by name, then by id: each click changes the first row), from the sorted page.
  const sorting: Sample[] = [];
  await page.goto("/webhook-groups?sort=id");
  await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
  for (let run = 0; run < RUNS; run++) {
    const toName = run % 2 === 0;
    sorting.push(await measure(page, () => page.getByTestId(toName ? "sort-name" : "sort-id").click(), toName ? byName : ascending));
  }
  rows.push(summary("sort by a column header", sorting));

  // The next page and back to the first by the pagination bar.
  const paging: Sample[] = [];
  await page.goto("/webhook-groups?sort=id");
  for (let run = 0; run < RUNS; run++) {
    const forward = run % 2 === 0;
    paging.push(await measure(page, () => page.getByTestId(forward ? "page-next" : "page-previous").click(), forward ? secondPage : ascending));
  }
  rows.push(summary("next / previous page", paging));

  // The toolbar: a name filter added from "+ Filter" (applied on Enter).
  const applying: Sample[] = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto("/webhook-groups?sort=id");
    await expect(page.getByTestId("listing-toolbar")).toHaveAttribute("data-ready", "true");
    await page.getByTestId("add-filter").click();
    const editor = page.getByTestId("filter-editor");
    await editor.getByLabel("Value").fill("a");
    applying.push(await measure(page, () => editor.getByLabel("Value").press("Enter"), filtered));
  }
  rows.push(summary("toolbar: add a filter", applying));

  console.log(
    [
      "",
      `${"action".padEnd(40)}${"median".padStart(8)}${"max".padStart(8)}${"documents".padStart(11)}${"RSC".padStart(6)}   (ms; requests per action)`,
      ...rows,
      "",
    ].join("\n"),
  );
});

/**
 * A cold load of /webhook-groups (a new browser context: no cache, no client router): the largest
 * contentful paint (target under 300 ms), and the JavaScript the page loads before it is usable,
 * as sent (gzip; target under 170 kB for the listing pages). Medians of ten.
 */
test("listing cold load: LCP and first-load JavaScript", async ({ browser }) => {
  const rows: string[] = [];
  for (const path of ["/webhook-groups", "/events"]) {
    const lcps: number[] = [];
    let jsBytes = 0;
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ storageState: ROLE_STATE.lister });
      const page = await context.newPage();
      await page.goto(path, { waitUntil: "networkidle" });
      await expect(page.getByTestId("listing-row").first()).toBeVisible();
      const measured = await page.evaluate(
        () =>
          new Promise<{ lcp: number; js: number }>((resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries();
              const js = performance
                .getEntriesByType("resource")
                .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === "script")
                .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0);
              resolve({ lcp: entries[entries.length - 1]!.startTime, js });
            }).observe({ type: "largest-contentful-paint", buffered: true });
          }),
      );
      lcps.push(measured.lcp);
      jsBytes = measured.js;
      await context.close();
    }
    lcps.sort((a, b) => a - b);
    rows.push(
      `${`cold load ${path}`.padEnd(40)}${lcps[Math.floor(lcps.length / 2)]!.toFixed(0).padStart(8)}${lcps.at(-1)!.toFixed(0).padStart(8)}${(jsBytes / 1000).toFixed(1).padStart(14)}`,
    );
  }
  console.log(["", `${"page".padEnd(40)}${"LCP".padStart(8)}${"max".padStart(8)}${"JS kB (gzip)".padStart(14)}   (ms; median of ${RUNS})`, ...rows, ""].join("\n"));
});
