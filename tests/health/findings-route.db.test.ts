// GET /api/health-findings (app/api/health-findings/route.ts), the Health page's CSV, called as a
// crafted request would call it: signed out, held at two-factor enrolment, without credentials, and
// as intended, against the sandbox EMS over real HTTP, a real database and a real session cookie.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));

import { GET } from "@/app/api/health-findings/route";
import { saveCredential } from "@/lib/credentials/store";
import { prisma } from "@/lib/db/prisma";
import { FINDINGS_CSV_COLUMNS } from "@/lib/health/csv";
import { parseCsv } from "@/lib/csv";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { sandboxForFile } from "../ems/support/sandbox";
import { errorOf, routeRequest } from "../actions/support/route-request";
import { signInAs, signedOut } from "../actions/support/request";
import { addMember, createTeam } from "../teams/fixtures";

const sandbox = sandboxForFile();
beforeEach(() => signedOut({ path: "/api/health-findings" }));

const download = () => GET(routeRequest("/api/health-findings"));

describe("GET /api/health-findings", () => {
  it("answers 401 JSON signed out, and 403 to a member whose team requires two-factor and who has not set it up", async () => {
    const signedOutAnswer = await download();
    expect(signedOutAnswer.status).toBe(401);
    expect(signedOutAnswer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    const owner = await createTeam();
    await prisma.team.update({ where: { id: owner.teamId }, data: { requireTwoFactor: true } });
    const member = await addMember(owner, "MEMBER");
    await signInAs(member);
    const refused = await download();
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatch(/requires two-factor/);
  });

  it("answers 409 with what to do when the caller has no credentials", async () => {
    await signInAs(await createTeam());
    const response = await download();
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toBe("Add your EMS API credentials in Settings first.");
  });

  it("is the findings of the caller's own account as a CSV file", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await signInAs(owner);
    const response = await download();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="health-findings-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const rows = parseCsv(await response.text());
    expect(rows[0]).toEqual([...FINDINGS_CSV_COLUMNS]);
    expect(rows.length).toBeGreaterThan(1);
  });
});
