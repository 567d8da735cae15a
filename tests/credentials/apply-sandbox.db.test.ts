// applySandboxCredentials and sandboxAppliedMessage (lib/credentials/sandbox.ts), the data function
// behind Settings' "Use the sandbox": the embedded sandbox's account saved as the actor's own
// credential at this portal's /sandbox (from the Host of the request, stood in for as tests/actions
// do), and tested. Against the sandbox served as the portal embeds it.
import { beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));

import { applySandboxCredentials, sandboxAppliedMessage } from "@/lib/credentials/sandbox";
import { prisma } from "@/lib/db/prisma";
import { portalSandboxForFile } from "../actions/support/sandbox";
import { signedOut } from "../actions/support/request";
import { addMember, createTeam } from "../teams/fixtures";

const sandbox = portalSandboxForFile();
beforeEach(() => signedOut({ path: "/settings", headers: { host: sandbox.host } }));

const credentialOf = (userId: string) => prisma.apiCredential.findUnique({ where: { userId } });

describe("applySandboxCredentials", () => {
  it("saves the chosen account at this portal's /sandbox as the actor's own credential, and tests it", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const result = await applySandboxCredentials(member, "other", { ip: "203.0.113.7" });
    expect(result).toMatchObject({ ok: true, webhookGroupCount: expect.any(Number) });
    expect(sandboxAppliedMessage(result)).toMatch(/^Sandbox credentials saved and tested: the account sees \d+ webhook groups\.$/);
    expect(await credentialOf(member.userId)).toMatchObject({ baseUrl: sandbox.baseUrl, keyLast4: "_key" });
    // The actor's own only: the team's owner has none.
    expect(await credentialOf(owner.userId)).toBeNull();
  });

  it("refuses, before saving anything, a Host that is not this portal's own", async () => {
    const owner = await createTeam();
    signedOut({ path: "/settings", headers: { host: "169.254.169.254" } });
    await expect(applySandboxCredentials(owner, "demo")).rejects.toMatchObject({ code: "sandbox_unreachable" });
    expect(await credentialOf(owner.userId)).toBeNull();
  });
});

describe("sandboxAppliedMessage", () => {
  it("says a failed test as a SafeError the form shows: the credential is saved all the same", () => {
    const testedAt = new Date();
    expect(() => sandboxAppliedMessage({ ok: false, message: "The EMS API is not answering.", code: "ems_unavailable", testedAt })).toThrow(
      expect.objectContaining({ safe: true, code: "test_failed", message: "Sandbox credentials saved, but the test failed: The EMS API is not answering." }),
    );
  });
});
