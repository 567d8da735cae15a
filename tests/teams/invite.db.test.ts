// inviteToTeam (lib/teams/invite.ts): the invitation, and the mail that carries its link on the
// portal's public origin, sent to a real SMTP server on loopback. The request the data function runs
// in is a test request (`next/headers` stood in for, as tests/actions do): its Host is the origin.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
vi.mock("next/headers", () => import("../actions/support/next-headers"));

import { prisma } from "@/lib/db/prisma";
import { inviteToTeam } from "@/lib/teams/invite";
import { getInvitationPreview } from "@/lib/teams/invitations";
import { signedOut } from "../actions/support/request";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp-receiver";
import { addMember, createTeam } from "./fixtures";

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(() => smtp.close());

const saved = { SMTP_URL: process.env.SMTP_URL, NEXTAUTH_URL: process.env.NEXTAUTH_URL };
beforeEach(() => {
  signedOut({ path: "/team" });
  delete process.env.SMTP_URL;
  delete process.env.NEXTAUTH_URL;
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("inviteToTeam", () => {
  it("makes the invitation and answers its link's path once; without an address nothing is mailed", async () => {
    const owner = await createTeam();
    const issued = await inviteToTeam(owner, { role: "ADMIN" }, { ip: "203.0.113.7" });
    expect(issued).toEqual({ path: expect.stringMatching(/^\/invite\/[A-Za-z0-9_-]{43}$/), role: "ADMIN", email: null, expiresAt: expect.any(String), mailed: false });
    expect(new Date(issued.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(await getInvitationPreview(issued.path.slice("/invite/".length))).toMatchObject({ role: "ADMIN" });
  });

  it("mails the link, on the origin of the request, to the address the invitation names", async () => {
    process.env.SMTP_URL = smtp.url;
    const owner = await createTeam();
    const issued = await inviteToTeam(owner, { role: "MEMBER", email: "new.person@example.test" });
    expect(issued).toMatchObject({ email: "new.person@example.test", mailed: true });
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(["new.person@example.test"]);
    expect(mail.body.replace(/=\r\n/g, "")).toContain(`http://localhost:3000${issued.path}`);
  });

  it("lets only owners and admins invite, and mails nothing for a refused one", async () => {
    process.env.SMTP_URL = smtp.url;
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const mailsBefore = smtp.received.length;
    await expect(inviteToTeam(member, { role: "MEMBER", email: "friend@example.test" })).rejects.toMatchObject({ code: "forbidden" });
    expect(await prisma.invitation.count({ where: { teamId: owner.teamId } })).toBe(0);
    expect(smtp.received.length).toBe(mailsBefore);
  });
});
