import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { newTestUser } from "./helpers/auth";
import { startDevServer } from "./helpers/dev-server";

// The README's first command, as a newcomer runs it: `npm run dev` (scripts/dev.ts, then `next dev`
// with Turbopack) on a fresh database, then the README's first steps in a browser. The rest of the
// suite tests the production build; the development server differs from it where it matters here:
// `next dev` checks the routes strictly and answered 404 on /sign-in, /sign-up, /two-factor/setup
// and /invite/… while the build served them (a parallel route slot's catch-all without a default
// for its sibling, app/(portal)/default.tsx). What the server reports on start counts as a failure,
// and so does a hydration error in the browser, which only development builds report.

// Each page is compiled on its first visit (seconds each beside the other workers, up to a minute
// or two on a busy two-core machine: seen 45 s for the first page and 111 s from "Create account"
// to the portal), and the database is initialised first.
test.describe.configure({ timeout: 540_000 });
/** A development server's first visit to a route waits for its compile: longer than a built page's. */
const DEV_NAVIGATION_TIMEOUT = 120_000;

/**
 * Next.js's errors (⨯) and warnings (⚠) in the server's output, an error with the list that follows it
 * (the page files a route error names), the browser's errors Next.js forwards ("[browser] … Hydration
 * failed …") and the portal's own errors: none of them belongs in a newcomer's first run. The whole
 * output is attached to the report.
 */
/**
 * What says the machine is busy, not that the code is wrong: Next's file system benchmark at start
 * (a loaded CI machine takes a few hundred milliseconds for it).
 */
const ABOUT_THE_MACHINE = /Slow filesystem detected/;
/**
 * What says the browser left a page while it was still streaming (a development reload cut off by
 * the next navigation): React's words for a response that closed under it. The portal logs it as
 * information (lib/http/request-errors.ts); Next's development server prints it as an error.
 */
const ABOUT_THE_CLIENT = /The destination stream (errored while writing data|closed early)\./;

function startupProblems(output: string): string[] {
  const problems: string[] = [];
  let listing = false;
  for (const line of output.split("\n")) {
    if (ABOUT_THE_MACHINE.test(line) || ABOUT_THE_CLIENT.test(line)) {
      listing = false;
      continue;
    }
    if (/^\s*[⨯⚠]/.test(line) || /\bERROR\b|hydrat/i.test(line)) {
      problems.push(line.trim());
      listing = line.trim().startsWith("⨯");
    } else if (listing && line.startsWith("- ")) problems[problems.length - 1] += `\n${line}`;
    else listing = false;
  }
  return problems;
}

/**
 * What the pages of these contexts print: every console message, for the report (a Fast Refresh that
 * keeps reloading a page shows there), and among them the problems: hydration errors and uncaught
 * exceptions, as React and Next.js report them in development.
 */
function watchBrowser(contexts: BrowserContext[]): { problems: string[]; console: string[] } {
  const seen = { problems: [] as string[], console: [] as string[] };
  const watch = (page: Page) => {
    page.on("console", (message) => {
      seen.console.push(`${page.url()} [${message.type()}] ${message.text()}`);
      if (message.type() === "error" && /hydrat/i.test(message.text())) seen.problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => {
      seen.console.push(`${page.url()} [uncaught] ${error.message}`);
      seen.problems.push(`${page.url()}: ${error.message}`);
    });
  };
  for (const context of contexts) {
    context.pages().forEach(watch);
    context.on("page", watch);
  }
  return seen;
}

/**
 * A short wait for the page on screen to be quiet, bounded: in development a page goes on fetching
 * after its load (Fast Refresh each time Turbopack compiled another route, the time zone refresh of
 * components/ui/time-zone-cookie.tsx). On a busy machine the compiles go on for minutes, and a page
 * was seen never to be idle for the 500 ms Playwright's "networkidle" asks (CI: two runs failed
 * waiting two minutes for it), so this only lowers the odds of the cut-off `visit` retries.
 */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
}

/** What a navigation cut off by a development reload of the page says (it is then started again). */
const CUT_OFF = /net::ERR_ABORTED|interrupted by another navigation|frame was detached/;

/**
 * A page load as a person makes it: once the page is quiet (settle), and again when a development
 * reload of the page cut the navigation off (net::ERR_ABORTED), up to five times.
 */
async function visit(page: Page, path: string) {
  for (let attempt = 1; ; attempt++) {
    await settle(page);
    try {
      return await page.goto(path);
    } catch (error) {
      if (attempt >= 5 || !CUT_OFF.test(String(error))) throw error;
    }
  }
}

test("`npm run dev` on a fresh clone: sign up on the empty portal, connect the sandbox, see the webhooks; the public pages and an invitation answer; nothing reported", async ({
  browser,
}, testInfo) => {
  const server = await startDevServer();
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const visitor = await browser.newContext({ baseURL: server.baseUrl });
  for (const each of [context, visitor]) each.setDefaultNavigationTimeout(DEV_NAVIGATION_TIMEOUT);
  const browserSeen = watchBrowser([context, visitor]);
  try {
    const page = await context.newPage();
    // The README: "Open http://localhost:3000 and create an account."
    const home = await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in/);
    expect(home?.status(), "/sign-in").toBe(200);
    // Clicked once the page is quiet, and again if a development reload swallowed the click.
    const setUp = page.getByRole("link", { name: "Set up EMS Portal" });
    await expect(setUp).toHaveAttribute("href", "/sign-up");
    await expect(async () => {
      await settle(page);
      if (!/\/sign-up$/.test(page.url())) await setUp.click();
      await expect(page).toHaveURL(/\/sign-up$/, { timeout: 5_000 });
    }).toPass({ timeout: DEV_NAVIGATION_TIMEOUT });
    const founder = newTestUser("newcomer");
    await page.getByLabel("Your name").fill(founder.name);
    await page.getByLabel("Email").fill(founder.email);
    await page.getByLabel("Password", { exact: true }).fill(founder.password);
    await page.getByRole("button", { name: "Create account" }).click();
    // The landing page is compiled on its first request: on a busy two-core machine that took over a minute.
    await expect(page.getByTestId("user-name")).toHaveText(founder.name, { timeout: 150_000 });

    // "In Settings → API credentials, choose 'Use the sandbox'", then the webhooks, with rows.
    await visit(page, "/settings/credentials");
    await page.getByRole("button", { name: "Use the sandbox" }).click();
    await expect(page.getByTestId("sandbox-quick-start-success")).toBeVisible({ timeout: 60_000 });
    await page.getByRole("link", { name: "Open your webhooks" }).click();
    await expect(page).toHaveURL(/\/webhooks(\?|$)/, { timeout: 60_000 });
    await expect(page.getByTestId("listing-row").first()).toBeVisible({ timeout: 60_000 });

    const twoFactor = await visit(page, "/two-factor/setup");
    expect(twoFactor?.status(), "/two-factor/setup").toBe(200);
    await expect(page.getByRole("heading", { name: "Set up two-factor sign-in" })).toBeVisible();

    // "Teammates join through invitation links from the Team page": one, opened by someone signed out.
    await visit(page, "/team");
    await page.getByRole("button", { name: "Create invitation link" }).click();
    const link = page.getByTestId("invitation-link");
    await expect(link).toHaveValue(/\/invite\/[A-Za-z0-9_-]{43}$/, { timeout: 30_000 });
    const guest = await visitor.newPage();
    const invitation = await guest.goto(await link.inputValue());
    expect(invitation?.status(), "the invitation link").toBe(200);
    await expect(guest.getByRole("heading", { name: /^Join / })).toBeVisible();
    const signIn = await visit(guest, "/sign-in");
    expect(signIn?.status(), "/sign-in with someone in the portal").toBe(200);
    await expect(guest.getByRole("heading", { name: "Sign in to EMS Portal" })).toBeVisible();
    // Closing a page in the middle of an answer would make the server report a broken stream. A
    // bounded wait: on a busy machine a development page may go on refreshing (a route compiled for
    // the other page reloads it), and what the server then reports is checked below, with its words.
    for (const open of [...context.pages(), ...visitor.pages()]) await open.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => undefined);
  } finally {
    await context.close();
    await visitor.close();
    // Taken before the server stops, and also when a step failed: the server's own report usually says why.
    const reported = startupProblems(server.output());
    await server.stop();
    await testInfo.attach("npm run dev output", { body: server.output(), contentType: "text/plain" });
    await testInfo.attach("browser console", { body: browserSeen.console.join("\n"), contentType: "text/plain" });
    expect.soft(reported, "what `npm run dev` reported").toEqual([]);
    expect.soft(browserSeen.problems, "what the browser reported").toEqual([]);
  }
});
