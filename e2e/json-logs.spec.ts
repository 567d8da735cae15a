// Logs a drain can read (issue 36 §4): the production server (`node .next/standalone/server.js`, as
// `npm start` runs it) with LOG_FORMAT=json writes nothing but JSON objects, one a line, on stdout
// and on stderr, from its start (Next's banner: scripts/standalone/json-output.cjs) to its stop. A
// page whose render fails (here: a table it reads is gone, as after a bad migration) is ONE line
// (instrumentation.ts's onRequestError -> lib/http/request-errors.ts) with its route and the error's
// class and code: no stack, and no secret of the server's anywhere in its output.
import pg from "pg";
import { expect, test } from "@playwright/test";
import { newTestUser, signUp } from "./helpers/auth";
import { startOwnServer } from "./helpers/own-server";

type Entry = Record<string, unknown> & { level?: string; event?: string; msg?: string };

async function onDatabase(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

test("with LOG_FORMAT=json every line the server writes, from start to stop, is one JSON object; a failed render is one line with its route and error class", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const server = await startOwnServer({ env: { LOG_FORMAT: "json", LOG_LEVEL: "info" } });
  const user = newTestUser("json-logs");
  let sessionCookie = "";
  try {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    const page = await context.newPage();
    await signUp(page, user);
    await page.goto("/team");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    sessionCookie = (await context.cookies()).find((cookie) => cookie.name.includes("session-token"))?.value ?? "";
    expect(sessionCookie).not.toBe("");

    // The Team page reads the invitations: without their table its render fails.
    await onDatabase(server.databaseUrl, `ALTER TABLE "Invitation" RENAME TO "InvitationGone"`);
    try {
      // The page streams (its frame first), so the failure reaches the browser's error boundary, which says so.
      await page.goto("/team");
      await expect(page.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
    } finally {
      await onDatabase(server.databaseUrl, `ALTER TABLE "InvitationGone" RENAME TO "Invitation"`);
    }
    expect((await page.request.get("/team")).status()).toBe(200);
    await context.close();
  } finally {
    await server.close();
  }

  const stdout = server.stdout();
  const stderr = server.stderr();
  await testInfo.attach("stdout", { body: stdout, contentType: "text/plain" });
  await testInfo.attach("stderr", { body: stderr, contentType: "text/plain" });
  const entries: Entry[] = [];
  for (const [stream, text] of [
    ["stdout", stdout],
    ["stderr", stderr],
  ] as const) {
    for (const line of text.split("\n").filter((candidate) => candidate !== "")) {
      let parsed: unknown;
      expect(() => (parsed = JSON.parse(line)), `${stream}: ${line}`).not.toThrow();
      expect(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed), `${stream}: ${line}`).toBe(true);
      entries.push(parsed as Entry);
    }
  }
  // Next's start-up banner, as JSON lines.
  expect(entries.some((entry) => entry.event === "next.output" && /Ready in/.test(String(entry.msg)))).toBe(true);

  // The failed render: one line, with its route and the error's class and code.
  const failures = entries.filter((entry) => entry.event === "request.failed");
  expect(failures).toEqual([
    expect.objectContaining({
      level: "error",
      route: expect.stringMatching(/\/team(\/page)?$/),
      method: "GET",
      err: expect.objectContaining({ type: "PrismaClientKnownRequestError", code: "P2021" }),
    }),
  ]);
  expect(Buffer.byteLength(JSON.stringify(failures[0]))).toBeLessThan(1_000);
  // Next does not print it again (its "⨯ Error [...]"), nor anything else at error level.
  expect(entries.filter((entry) => entry.level === "error")).toHaveLength(1);

  // No stack frame, and none of the server's secrets, the person's password or session anywhere.
  const everything = `${stdout}\n${stderr}`;
  expect(everything).not.toMatch(/\bat [\w$.<>]+ \(|\.js:\d+:\d+/);
  const secrets = {
    NEXTAUTH_SECRET: server.env.NEXTAUTH_SECRET!,
    CREDENTIAL_ENCRYPTION_KEYS: server.env.CREDENTIAL_ENCRYPTION_KEYS!.split(":")[1]!,
    EMS_FINGERPRINT_SECRET: server.env.EMS_FINGERPRINT_SECRET!,
    SANDBOX_SIGNING_SECRET: server.env.SANDBOX_SIGNING_SECRET!,
    SANDBOX_ADMIN_SECRET: server.env.SANDBOX_ADMIN_SECRET!,
    password: user.password,
    session: sessionCookie,
  };
  for (const [name, secret] of Object.entries(secrets)) expect(everything.includes(secret), name).toBe(false);
  expect(everything).not.toMatch(/secretKey|processID/);
});
