// The mail a person gets when someone changed who controls their account (issue 24, finding 1):
// a real SMTP server on loopback, the real data functions, the real database.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { endOtherSessions } from "@/lib/auth/sessions";
import { totpCodeAt, totpStep } from "@/lib/auth/totp";
import { confirmEnrolment, pendingEnrolment, regenerateRecoveryCodes, startEnrolment } from "@/lib/auth/two-factor";
import { startSmtpReceiver, type SmtpReceiver } from "@/tests/support/smtp-receiver";
import { createTeam } from "@/tests/teams/fixtures";

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(() => smtp.close());
afterEach(() => {
  delete process.env.SMTP_URL;
});

const meta = { ip: "203.0.113.9" };
const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));

describe("security notices", () => {
  it("mails the person, and only them, when two-factor goes on, recovery codes are made and other sessions end", async () => {
    process.env.SMTP_URL = smtp.url;
    const owner = await createTeam();
    await prisma.userSession.create({ data: { userId: owner.userId } });
    await startEnrolment(owner, meta);
    const { secret } = (await pendingEnrolment(owner))!;
    await confirmEnrolment(owner, totpCodeAt(secret, totpStep()), meta);
    await prisma.twoFactor.update({ where: { userId: owner.userId }, data: { lastUsedStep: totpStep() - 5 } });
    await regenerateRecoveryCodes({ ...owner, twoFactorEnabled: true }, totpCodeAt(secret, totpStep()), meta);
    await prisma.userSession.create({ data: { userId: owner.userId } });
    await endOtherSessions(owner, meta);

    const mails = mailsTo(owner.email);
    expect(mails.map((mail) => mail.body.match(/^Subject: (.*)$/m)?.[1])).toEqual([
      "Two-factor sign-in was turned on for your EMS Portal account",
      "New recovery codes were made for your EMS Portal account",
      "Your other EMS Portal sessions were signed out",
    ]);
    for (const mail of mails) {
      expect(mail.to).toEqual([owner.email]);
      expect(mail.body.replace(/=\r?\n/g, "")).toContain("From the address: 203.0.113.9"); // quoted-printable's soft breaks
      expect(mail.body).not.toContain(secret);
    }
  });

  it("sends nothing when mail is off, and the change still happens", async () => {
    const owner = await createTeam();
    await startEnrolment(owner, meta);
    const { secret } = (await pendingEnrolment(owner))!;
    const { recoveryCodes } = await confirmEnrolment(owner, totpCodeAt(secret, totpStep()), meta);
    expect(recoveryCodes).toHaveLength(10);
    expect(mailsTo(owner.email)).toEqual([]);
  });

  it("does not fail the change when the mail server cannot be reached", async () => {
    process.env.SMTP_URL = "smtp://127.0.0.1:1";
    const owner = await createTeam();
    await startEnrolment(owner, meta);
    const { secret } = (await pendingEnrolment(owner))!;
    await expect(confirmEnrolment(owner, totpCodeAt(secret, totpStep()), meta)).resolves.toMatchObject({ otherSessionsEnded: 0 });
    expect((await prisma.twoFactor.findUniqueOrThrow({ where: { userId: owner.userId } })).enabledAt).not.toBeNull();
  });
});
