// A calm outage (issue 28 §3): PostgreSQL stopped under a running production server, then started
// again. While it is down, pages answer 503 with a page that says what is wrong and tries again by
// itself (proxy.ts, lib/http/outage-page.ts), a form's action answers a message and keeps what was
// typed (lib/actions/pipeline.ts), route handlers answer 503 JSON and /api/health 503. Once it is
// back, pages answer within seconds and the job engine (pg-boss) runs a job sent after the restart.
// The database lost WHILE a page's query is in flight (cut between the server and PostgreSQL by a
// TCP proxy, or the session ended by the server) answers 503 with the same page too, never 500
// (lib/http/outage-response.ts). The server and its database are this spec's own
// (e2e/helpers/own-server.ts): the shared e2e server must never lose its database under the other specs.
import PgBoss from "pg-boss";
import { expect, test } from "@playwright/test";
import { newTestUser, signUp } from "./helpers/auth";
import { startOwnServer, type OwnServer } from "./helpers/own-server";
import { shoot } from "./helpers/screenshots";
import { DATABASE_UNAVAILABLE_MESSAGE, OUTAGE_HEADING } from "../lib/http/outage-page";
import { onDatabase } from "../scripts/db/on-database";

test.describe.configure({ mode: "serial" });

let server: OwnServer;

test.beforeAll(async () => {
  // Jobs on: the engine must come back by itself after the outage.
  // Through a proxy the first test holds and cuts.
  server = await startOwnServer({ env: { JOBS_ENABLED: "true" }, databaseProxy: true });
});

test.afterAll(async () => {
  await server?.close();
});

/** Sends a job as another instance would: into the portal's pg-boss schema, without working any. */
async function sendJob(databaseUrl: string, name: string): Promise<{ id: string; boss: PgBoss }> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: "pgboss", supervise: false, schedule: false, migrate: false, max: 1 });
  boss.on("error", (error: unknown) => console.error("pg-boss (test client):", error));
  await boss.start();
  const id = await boss.send(name, {});
  if (!id) throw new Error(`pg-boss did not take the ${name} job`);
  return { id, boss };
}

/** Ends every session of the server's on its database (PostgreSQL's 57P01, "terminating connection due to administrator command"). */
async function terminateServerSessions(databaseUrl: string): Promise<number> {
  return onDatabase(databaseUrl, async (client) => {
    const ended = await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND datname = current_database()`,
    );
    return ended.rowCount ?? 0;
  });
}

test("the database lost while a page's query is in flight: 503 with the outage page, never 500", async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const proxy = server.proxy!;
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  try {
    await signUp(page, newTestUser("cut"));
    const cuts = [
      { path: "/team", how: "connection reset" },
      { path: "/audit", how: "session ended" },
      { path: "/account", how: "connection reset" },
      { path: "/team", how: "session ended" },
      { path: "/events", how: "connection reset" },
    ] as const;
    for (const { path, how } of cuts) {
      // The database answers: the page renders.
      await expect.poll(async () => (await page.request.get(path, { maxRedirects: 0 })).status(), { timeout: 10_000, message: `${path} before the cut` }).toBe(200);
      // The page's next query waits in the proxy: it is in flight when the connection goes.
      proxy.hold();
      const answering = page.request.get(path, { maxRedirects: 0 });
      await expect.poll(() => proxy.held(), { timeout: 10_000, message: `${path}: a query in flight` }).toBeGreaterThan(0);
      if (how === "connection reset") proxy.cut();
      else expect(await terminateServerSessions(server.databaseUrl)).toBeGreaterThan(0);
      const answer = await answering;
      const html = await answer.text();
      expect(answer.status(), `${path}, ${how}`).toBe(503);
      expect(html, `${path}, ${how}`).toContain(OUTAGE_HEADING);
      expect(answer.headers()["retry-after"], `${path}, ${how}`).toMatch(/^\d+$/);
      proxy.restore();
    }
    // And the page is back once the database is.
    await expect.poll(async () => (await page.request.get("/team")).status(), { timeout: 10_000 }).toBe(200);
  } catch (error) {
    await testInfo.attach("server output", { body: server.output(), contentType: "text/plain" });
    throw error;
  } finally {
    proxy.restore();
    await context.close();
  }
});

test("with the database stopped, pages answer 503 with the outage page and forms a message; once it is back, pages and jobs resume", async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  try {
    await signUp(page, newTestUser("outage"));
    await page.goto("/team");
    const email = page.getByLabel("Email (optional)");
    await email.fill("invitee@example.test");

    await server.stopDatabase();

    // A server action: the form's message, and what was typed is still there.
    await page.getByRole("button", { name: "Create invitation link" }).click();
    await expect(page.getByTestId("invite-form-error")).toHaveText(DATABASE_UNAVAILABLE_MESSAGE);
    await expect(email).toHaveValue("invitee@example.test");
    await shoot(page, "outage-form-message", false);

    // Listing pages: 503 with the outage page, and when to come back.
    for (const path of ["/webhook-groups", "/events"]) {
      const answer = await page.request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBe(503);
      expect(answer.headers()["retry-after"], path).toMatch(/^\d+$/);
      expect(answer.headers()["cache-control"], path).toBe("no-store");
      const html = await answer.text();
      expect(html, path).toContain(OUTAGE_HEADING);
      expect(html, path).toMatch(/<meta http-equiv="refresh" content="\d+">/);
    }
    // A route handler of a signed-in person: 503 JSON; the health check: 503.
    const route = await page.request.get("/api/palette/views");
    expect(route.status()).toBe(503);
    expect(await route.json()).toEqual({ error: DATABASE_UNAVAILABLE_MESSAGE });
    expect((await page.request.get("/api/health")).status()).toBe(503);
    // The sign-in page, for a visitor without a session: the same calm page, not a crash.
    const visitor = await browser.newContext({ baseURL: server.baseUrl });
    const signIn = await visitor.request.get("/sign-in");
    expect(signIn.status()).toBe(503);
    expect(await signIn.text()).toContain(OUTAGE_HEADING);
    await visitor.close();

    // In the browser: the page says what is wrong and offers to try again.
    const shown = await page.goto("/events");
    expect(shown?.status()).toBe(503);
    await expect(page.getByRole("heading", { name: OUTAGE_HEADING })).toBeVisible();
    await expect(page.getByRole("link", { name: "Try again" })).toBeVisible();
    await expect(page.getByRole("status")).toContainText(/tries again by itself in \d+ seconds/);
    // Nothing wider than a phone's screen.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 720 });
    await shoot(page, "outage-page");

    await server.startDatabase();
    const restartedAt = Date.now();

    // Pages answer again within a few seconds, by themselves.
    await expect.poll(async () => (await page.request.get("/events", { maxRedirects: 0 })).status(), { timeout: 5_000, intervals: [100] }).not.toBe(503);
    const recoveredMs = Date.now() - restartedAt;
    testInfo.annotations.push({ type: "recovered", description: `pages answered ${recoveredMs} ms after PostgreSQL was back` });
    expect((await page.request.get("/events")).status()).toBe(200);
    expect((await page.request.get("/api/health")).status()).toBe(200);
    // The outage page on screen reloads itself into the real page (its meta refresh).
    await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible({ timeout: 15_000 });

    // The job engine works again: a retention job sent after the restart runs and deletes an expired row.
    const attemptId = `outage-${Date.now()}`;
    await onDatabase(server.databaseUrl, (client) =>
      client.query(
        `INSERT INTO "AuthAttempt" ("id", "kind", "account", "address", "success", "createdAt") VALUES ($1, 'sign-in', 'old@example.test', '127.0.0.1', false, now() - interval '90 days')`,
        [attemptId],
      ),
    );
    const { id, boss } = await sendJob(server.databaseUrl, "retention");
    try {
      await expect.poll(async () => (await boss.getJobById("retention", id))?.state, { timeout: 20_000, intervals: [250] }).toBe("completed");
      const job = await boss.getJobById<unknown>("retention", id);
      expect((job?.output as { deleted?: { authAttempts?: number } } | undefined)?.deleted?.authAttempts).toBeGreaterThanOrEqual(1);
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    const left = await onDatabase(server.databaseUrl, (client) => client.query(`SELECT 1 FROM "AuthAttempt" WHERE "id" = $1`, [attemptId]));
    expect(left.rowCount).toBe(0);
  } catch (error) {
    await testInfo.attach("server output", { body: server.output(), contentType: "text/plain" });
    throw error;
  } finally {
    await context.close();
  }
});
