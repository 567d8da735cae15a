// The Vercel cron route of the retention job (app/api/cron/retention): CRON_SECRET as a bearer
// token or nothing runs; with it, the job's own function runs and prunes.
import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/cron/retention/route";
import { prisma } from "@/lib/db/prisma";
import { unique } from "@/tests/teams/fixtures";

const SECRET = "cron-secret-for-the-tests-0123456789";
const call = (authorization?: string) => GET(new Request("http://portal.test/api/cron/retention", { headers: authorization === undefined ? {} : { authorization } }));

/** A sign-in attempt long past its retention age: left or gone shows whether the job ran. */
async function dueAttempt(): Promise<string> {
  const id = `cron-${unique()}`;
  await prisma.authAttempt.create({
    data: { id, kind: "password", account: id, address: "192.0.2.1", success: false, createdAt: new Date(Date.now() - 400 * 24 * 3600_000) },
  });
  return id;
}
const exists = async (id: string) => (await prisma.authAttempt.count({ where: { id } })) === 1;

afterEach(() => {
  delete process.env.CRON_SECRET;
});

describe("GET /api/cron/retention", () => {
  it("answers 503 and runs nothing while CRON_SECRET is not set, whatever is sent", async () => {
    const id = await dueAttempt();
    for (const authorization of [undefined, "Bearer ", "Bearer undefined", `Bearer ${SECRET}`]) {
      const response = await call(authorization);
      expect(response.status, String(authorization)).toBe(503);
      expect(await response.json()).toEqual({ error: "CRON_SECRET is not set on this deployment." });
    }
    expect(await exists(id)).toBe(true);
  });

  it("answers 401 and runs nothing without the secret or with another one", async () => {
    process.env.CRON_SECRET = SECRET;
    const id = await dueAttempt();
    for (const authorization of [
      undefined,
      "",
      SECRET,
      `Basic ${SECRET}`,
      `bearer ${SECRET}`,
      "Bearer wrong",
      `Bearer ${SECRET}x`,
      `Bearer ${SECRET.slice(0, -1)}`,
      `Bearer  ${SECRET}`,
    ]) {
      const response = await call(authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="cron"');
    }
    expect(await exists(id)).toBe(true);
  });

  it("with the secret, runs the retention job and says what it deleted", async () => {
    process.env.CRON_SECRET = SECRET;
    const id = await dueAttempt();
    const response = await call(`Bearer ${SECRET}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { job: string; result: { deleted: { authAttempts: number }; complete: boolean } };
    expect(body.job).toBe("retention");
    expect(body.result.complete).toBe(true);
    expect(body.result.deleted.authAttempts).toBeGreaterThanOrEqual(1);
    expect(await exists(id)).toBe(false);
  });
});
