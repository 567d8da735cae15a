import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { CredentialUnreadableError } from "@/lib/ems-access/credential";
import { CredentialsRejectedError, EmsBadRequestError, InvalidResponseError, RateLimitedError, UpstreamUnavailableError } from "@/lib/ems/errors";
import { GENERIC_ERROR_MESSAGE } from "@/lib/errors";
import { withLogLevel } from "../ems/support/env";

// The route's collaborators are replaced: who is signed in, their EMS client, and the export itself.
// What is under test is the route's own job: how each outcome becomes an HTTP status.
const getActor = vi.hoisted(() => vi.fn());
const getEmsClientForActor = vi.hoisted(() => vi.fn());
const startExport = vi.hoisted(() => vi.fn());
const acquireExportSlot = vi.hoisted(() => vi.fn());
const auditByActor = vi.hoisted(() => vi.fn());
const release = vi.hoisted(() => vi.fn());
vi.mock("@/lib/auth/session", async (importOriginal) => ({ ...(await importOriginal<object>()), getActor }));
vi.mock("@/lib/ems-access/credential", async (importOriginal) => ({ ...(await importOriginal<object>()), getEmsClientForActor }));
vi.mock("@/lib/listing/export", async (importOriginal) => ({ ...(await importOriginal<object>()), startExport }));
vi.mock("@/lib/listing/export-slots", () => ({ acquireExportSlot }));
vi.mock("@/lib/audit/log", () => ({ auditByActor }));
vi.mock("@/lib/auth/request-meta", () => ({ clientIp: async () => "203.0.113.7" }));

const { GET } = await import("@/app/api/export/[resource]/route");

const actor: Actor = { userId: "u1", email: "a@example.test", name: "A", sessionId: "s1", teamId: "t1", teamName: "T", role: "MEMBER", twoFactorEnabled: false, teamRequiresTwoFactor: false, reauthenticatedAt: new Date(), passwordVerifiedAt: new Date() };
const client = { fingerprint: "f".repeat(64) };

function exportOf(resource: string, search = "format=csv") {
  return GET(new Request(`http://localhost:3000/api/export/${resource}?${search}`), { params: Promise.resolve({ resource }) } as never);
}

async function bodyOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: string }).error;
}

beforeEach(() => {
  getActor.mockResolvedValue(actor);
  getEmsClientForActor.mockResolvedValue(client);
  release.mockResolvedValue(undefined);
  acquireExportSlot.mockResolvedValue({ id: "slot-1", release });
  auditByActor.mockResolvedValue(undefined);
});

afterEach(() => {
  vi.resetAllMocks();
  vi.restoreAllMocks();
});

describe("GET /api/export/[resource]: the status of each outcome", () => {
  it("200 with the export's event stream, which releases the slot when it ends", async () => {
    startExport.mockResolvedValue({ stream: new Blob(['{"type":"end","rows":0}\n']).stream() });
    const response = await exportOf("events");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.text()).toBe('{"type":"end","rows":0}\n');
    expect(acquireExportSlot).toHaveBeenCalledWith("u1", { max: 2, holdSeconds: 360 });
    const [, , format, options] = startExport.mock.calls[0];
    expect(format).toBe("csv");
    expect(options).toMatchObject({ maxRows: 10_000, maxSeconds: 300, includeHeaderValues: false, onFinish: release, filename: expect.stringMatching(/^events-\d{14}\.csv$/) });
  });

  it("429 with a clear message when the person already runs their exports at once", async () => {
    acquireExportSlot.mockResolvedValue(null);
    const response = await exportOf("webhook-groups");
    expect(response.status).toBe(429);
    expect(await bodyOf(response)).toBe("You already have 2 exports running. Wait for one to finish, or cancel it, then start this one again.");
    expect(startExport).not.toHaveBeenCalled();
  });

  it("takes no slot for a request it refuses anyway (signed out, bad options, no credentials)", async () => {
    getEmsClientForActor.mockResolvedValue(null);
    expect((await exportOf("events")).status).toBe(409);
    expect((await exportOf("events", "sort=colour")).status).toBe(400);
    expect(acquireExportSlot).not.toHaveBeenCalled();
  });

  it("hides header values unless asked; asking is recorded in the team's audit log", async () => {
    startExport.mockResolvedValue({ stream: new Blob([""]).stream() });
    await exportOf("webhook-groups", "format=json&sort=-id");
    expect(startExport.mock.calls[0][3]).toMatchObject({ includeHeaderValues: false });
    expect(auditByActor).not.toHaveBeenCalled();

    await exportOf("webhook-groups", "format=json&sort=-id&headerValues=include");
    expect(startExport.mock.calls[1][3]).toMatchObject({ includeHeaderValues: true });
    expect(auditByActor).toHaveBeenCalledWith(actor, {
      action: "export.header_values_included",
      target: "webhook-groups",
      ip: "203.0.113.7",
      metadata: { resource: "webhook-groups", format: "json", query: "sort=-id" },
    });
    // Events have no headers: nothing to include, nothing recorded.
    await exportOf("events", "headerValues=include");
    expect(startExport.mock.calls[2][3]).toMatchObject({ includeHeaderValues: false });
    expect(auditByActor).toHaveBeenCalledTimes(1);
  });

  it("asks for a recent re-authentication before including header values, and records nothing then", async () => {
    startExport.mockResolvedValue({ stream: new Blob([""]).stream() });
    getActor.mockResolvedValue({ ...actor, reauthenticatedAt: new Date(Date.now() - 11 * 60 * 1000) });
    const refused = await exportOf("webhook-groups", "format=json&headerValues=include");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "For your security, confirm it's you to continue.", reauthRequired: true });
    expect(startExport).not.toHaveBeenCalled();
    expect(auditByActor).not.toHaveBeenCalled();
    // Without header values, the same session exports as before.
    expect((await exportOf("webhook-groups", "format=json")).status).toBe(200);
    getActor.mockResolvedValue(actor);
  });

  it("403 for a member whose team requires two-factor and who has not set it up", async () => {
    getActor.mockResolvedValue({ ...actor, teamRequiresTwoFactor: true });
    const refused = await exportOf("events");
    expect(refused.status).toBe(403);
    expect(await bodyOf(refused)).toMatch(/requires two-factor/);
    expect(startExport).not.toHaveBeenCalled();
    getActor.mockResolvedValue(actor);
  });

  it("401 when signed out, 404 for an unknown listing, 400 for options it would ignore", async () => {
    getActor.mockResolvedValue(null);
    expect((await exportOf("events")).status).toBe(401);
    getActor.mockResolvedValue(actor);
    expect((await exportOf("contacts")).status).toBe(404);
    const bad = await exportOf("events", "format=csv&sort=colour");
    expect(bad.status).toBe(400);
    expect(await bodyOf(bad)).toContain("cannot be sorted by “colour”");
    expect(startExport).not.toHaveBeenCalled();
  });

  it("400, not 500, for a filter on a name every object inherits (__proto__, constructor…)", async () => {
    for (const filter of ["__proto__=1", "constructor=1", "constructor"]) {
      const response = await exportOf("webhook-groups", `format=csv&filter=${encodeURIComponent(filter)}`);
      expect(response.status, filter).toBe(400);
      expect(await bodyOf(response)).toContain("cannot be filtered on");
    }
    expect(startExport).not.toHaveBeenCalled();
  });

  it("409 without saved credentials; 500 with the reason when they cannot be read", async () => {
    getEmsClientForActor.mockResolvedValue(null);
    expect((await exportOf("events")).status).toBe(409);
    getEmsClientForActor.mockRejectedValue(new CredentialUnreadableError());
    const unreadable = await exportOf("events");
    expect(unreadable.status).toBe(500);
    expect(await bodyOf(unreadable)).toBe(new CredentialUnreadableError().message);
  });

  it.each([
    ["rejected credentials", new CredentialsRejectedError(), 403],
    ["a rate limit", new RateLimitedError(42), 429],
    ["an unavailable API", new UpstreamUnavailableError("503 twice", { status: 503 }), 503],
    ["a request the API refused", new EmsBadRequestError("unknown field", 422), 400],
    ["an answer that cannot be read", new InvalidResponseError("not JSON"), 502],
  ])("%s: %s", async (_what, error, status) => {
    startExport.mockRejectedValue(error);
    const response = await exportOf("webhook-groups");
    expect(response.status).toBe(status);
    expect(release).toHaveBeenCalled();
    expect(await bodyOf(response)).toBe(error.userMessage);
    expect(response.headers.get("retry-after")).toBe(status === 429 ? "42" : null);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("500 with the generic message for anything unexpected, logged under the request id it answers with", async () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(chunk.toString());
      return true;
    });
    const restoreLevel = withLogLevel("error");
    try {
      startExport.mockRejectedValue(new Error("database exploded"));
      const response = await exportOf("events");
      expect(response.status).toBe(500);
      expect(await bodyOf(response)).toBe(GENERIC_ERROR_MESSAGE);
      const logged = lines.map((line) => JSON.parse(line) as { event?: string; requestId?: string; err?: { message?: string } });
      expect(logged).toContainEqual(
        expect.objectContaining({ event: "listing.unexpected_error", requestId: response.headers.get("x-request-id"), err: expect.objectContaining({ message: "database exploded" }) }),
      );
    } finally {
      restoreLevel();
    }
  });
});
