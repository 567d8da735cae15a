// GET /api/export/[resource] (app/api/export/[resource]/route.ts) against the real parts: a real
// database, the sandbox EMS over real HTTP, a real next-auth session cookie for a real session
// row. Only the framework is stood in for (`next/headers`, as tests/actions do). Called as the
// export button, or a crafted request, would call it.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));

import { GET } from "@/app/api/export/[resource]/route";
import { REAUTH_REQUIRED_MESSAGE } from "@/lib/access/reauth-shared";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { CredentialUnreadableError } from "@/lib/ems-access/credential";
import { prisma } from "@/lib/db/prisma";
import { CredentialsRejectedError } from "@/lib/ems/errors";
import { EXPORT_CONTENT_TYPE, collectExport } from "@/lib/listing/export-events";
import { acquireExportSlot } from "@/lib/listing/export-slots";
import { parseCsv } from "@/lib/csv";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/testing";
import { sandboxForFile } from "../ems/support/sandbox";
import { errorOf, routeRequest } from "../actions/support/route-request";
import { signInAs, signedOut } from "../actions/support/request";
import { addMember, createTeam } from "../teams/fixtures";

const ELEVEN_MINUTES = 11 * 60 * 1000;
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const sandbox = sandboxForFile();
beforeEach(() => signedOut({ path: "/api/export" }));

const exportOf = (resource: string, search = "format=csv") => GET(routeRequest(`/api/export/${resource}?${search}`), { params: Promise.resolve({ resource }) });

/** A team owner with the sandbox's demo account saved as their credential, signed in `ageMs` ago. */
async function connectedOwner(ageMs = 0): Promise<Actor> {
  const owner = await createTeam();
  await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
  await signedInSince(owner, ageMs);
  return owner;
}

async function signedInSince(who: Pick<Actor, "userId">, ageMs: number): Promise<void> {
  const { sessionId } = await signInAs(who, { path: "/api/export" });
  const at = new Date(Date.now() - ageMs);
  await prisma.userSession.update({ where: { id: sessionId }, data: { reauthenticatedAt: at, passwordVerifiedAt: at } });
}

const slotsOf = (who: Pick<Actor, "userId">) => prisma.exportSlot.count({ where: { userId: who.userId } });
const headerRecords = (who: Pick<Actor, "teamId">) => prisma.auditLog.findMany({ where: { teamId: who.teamId, action: "export.header_values_included" } });

describe("GET /api/export/[resource]", () => {
  it("streams every matching row as the button's events, names the request, and gives the slot back at the end", async () => {
    const owner = await connectedOwner();
    const response = await exportOf("events", "format=csv&sort=-id");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(EXPORT_CONTENT_TYPE);
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-request-id")).toMatch(REQUEST_ID);
    const { events, file } = await collectExport(response.body!);
    const start = events[0];
    expect(start).toMatchObject({ type: "start", format: "csv", filename: expect.stringMatching(/^events-\d{14}\.csv$/), truncated: false });
    const total = start.type === "start" ? start.total : -1;
    expect(total).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ type: "end", rows: total });
    const rows = parseCsv(file);
    expect(rows).toHaveLength(total + 1);
    // Newest first, as asked.
    const ids = rows.slice(1).map((row) => Number(row[rows[0].indexOf("id")]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(await slotsOf(owner)).toBe(0);
  });

  it("hides header values unless asked; asking is recorded in the team's audit log, with the options and the address", async () => {
    const owner = await connectedOwner();
    const hidden = await collectExport((await exportOf("webhook-groups", "format=json&sort=-id")).body!);
    expect(hidden.events[0]).toMatchObject({ type: "start", headerValues: "hidden" });
    expect(await headerRecords(owner)).toHaveLength(0);

    const included = await exportOf("webhook-groups", "format=json&sort=-id&headerValues=include");
    expect(included.status).toBe(200);
    expect((await collectExport(included.body!)).events[0]).toMatchObject({ type: "start", headerValues: "included" });
    const records = await headerRecords(owner);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actorId: owner.userId,
      target: "webhook-groups",
      ip: "203.0.113.7",
      metadata: { resource: "webhook-groups", format: "json", query: "sort=-id" },
    });

    // Events have no headers: nothing to include, nothing recorded.
    const events = await exportOf("events", "headerValues=include");
    expect((await collectExport(events.body!)).events[0]).toMatchObject({ type: "start", headerValues: "hidden" });
    expect(await headerRecords(owner)).toHaveLength(1);
  });

  it("asks a session that proved itself 11 minutes ago to re-authenticate before including header values, and records nothing then", async () => {
    const owner = await connectedOwner(ELEVEN_MINUTES);
    const refused = await exportOf("webhook-groups", "format=json&headerValues=include");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: REAUTH_REQUIRED_MESSAGE, reauthRequired: "any" });
    expect(await headerRecords(owner)).toHaveLength(0);
    expect(await slotsOf(owner)).toBe(0);
    // Without header values (or for events, which have none), the same session exports as before.
    const plain = await exportOf("webhook-groups", "format=json");
    expect(plain.status).toBe(200);
    await plain.body!.cancel();
    const events = await exportOf("events", "headerValues=include");
    expect(events.status).toBe(200);
    await events.body!.cancel();
  });

  it("answers 403 to a member whose team requires two-factor and who has not set it up", async () => {
    const owner = await createTeam();
    await prisma.team.update({ where: { id: owner.teamId }, data: { requireTwoFactor: true } });
    const member = await addMember(owner, "MEMBER");
    await saveCredential(member, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await signedInSince(member, 0);
    const refused = await exportOf("events");
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatch(/requires two-factor/);
    expect(await slotsOf(member)).toBe(0);
  });

  it("answers 401 signed out, 404 for an unknown listing, and 400 with the reason for options it would ignore, taking no slot", async () => {
    const signedOutAnswer = await exportOf("events");
    expect(signedOutAnswer.status).toBe(401);
    expect(signedOutAnswer.headers.get("location")).toBeNull();
    // Every answer names its request, refusals too, so a person's report can be found in the logs.
    expect(signedOutAnswer.headers.get("x-request-id")).toMatch(REQUEST_ID);

    const owner = await connectedOwner();
    expect((await exportOf("contacts")).status).toBe(404);
    const bad = await exportOf("events", "format=csv&sort=colour");
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toContain("cannot be sorted by “colour”");
    expect(bad.headers.get("x-request-id")).toMatch(REQUEST_ID);
    // A filter on a name every object inherits is a bad option too, not a 500.
    for (const filter of ["__proto__=1", "constructor=1", "constructor"]) {
      const response = await exportOf("webhook-groups", `format=csv&filter=${encodeURIComponent(filter)}`);
      expect(response.status, filter).toBe(400);
      expect(await errorOf(response)).toContain("cannot be filtered on");
    }
    expect(await slotsOf(owner)).toBe(0);
  });

  it("answers 409 without saved credentials, and 500 with the reason when they can no longer be read", async () => {
    const owner = await createTeam();
    await signedInSince(owner, 0);
    const none = await exportOf("events");
    expect(none.status).toBe(409);
    expect(await errorOf(none)).toBe("Add your EMS API credentials in Settings first.");

    await saveCredential(owner, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
    await prisma.apiCredential.update({ where: { userId: owner.userId }, data: { secretCiphertext: "v1:gone:AAAA:AAAA" } });
    const unreadable = await exportOf("events");
    expect(unreadable.status).toBe(500);
    expect(await errorOf(unreadable)).toBe(new CredentialUnreadableError().message);
    expect(await slotsOf(owner)).toBe(0);
  });

  it("answers 429 when the person already runs as many exports as allowed, and starts none", async () => {
    const owner = await connectedOwner();
    const held = [await acquireExportSlot(owner.userId, { max: 2, holdSeconds: 60 }), await acquireExportSlot(owner.userId, { max: 2, holdSeconds: 60 })];
    const refused = await exportOf("events");
    expect(refused.status).toBe(429);
    expect(await errorOf(refused)).toBe("You already have 2 exports running. Wait for one to finish, or cancel it, then start this one again.");
    for (const slot of held) await slot!.release();
  });

  it("answers 403 with the EMS's words when the saved credentials are rejected, and gives the slot back", async () => {
    const owner = await createTeam();
    await saveCredential(owner, { baseUrl: sandbox.baseUrl, consumerKey: DEMO_CREDENTIALS.consumerKey, consumerSecret: "not the secret" });
    await signedInSince(owner, 0);
    const response = await exportOf("webhook-groups");
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toBe(new CredentialsRejectedError().userMessage);
    expect(response.headers.get("x-request-id")).toMatch(REQUEST_ID);
    expect(await slotsOf(owner)).toBe(0);
  });
});
