import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailEnv } from "@/lib/env";
import { mailInvitation } from "@/lib/teams/invitation-mail";
import { captureOutput } from "@/tests/ems/support/capture-logs";
import { withLogLevel } from "@/tests/ems/support/env";
import { startSmtpReceiver, type SmtpReceiver } from "@/tests/support/smtp-receiver";

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(() => smtp.close());

const invitation = {
  to: "new.member@example.test",
  teamName: "Events Ops",
  inviterName: "Ada",
  role: "ADMIN" as const,
  link: "https://portal.example.test/invite/abc123",
  expiresAt: new Date("2026-11-28T12:00:00Z"),
};

describe("invitation mail", () => {
  it("is not sent when SMTP_URL is unset", async () => {
    expect(await mailInvitation(invitation, mailEnv({}))).toBe(false);
  });

  it("sends the link to the invited address when SMTP is configured", async () => {
    expect(await mailInvitation(invitation, mailEnv({ SMTP_URL: smtp.url, SMTP_FROM: "Portal <portal@example.test>" }))).toBe(true);
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(["new.member@example.test"]);
    expect(mail.body).toContain("Subject: Ada invited you to Events Ops on EMS Portal");
    expect(mail.body).toContain("https://portal.example.test/invite/abc123");
    expect(mail.body).toContain("as an admin");
  });

  it("reports a server that cannot be reached as not sent, without throwing; the log line says why, never to whom nor the link", async () => {
    const restore = withLogLevel("info");
    try {
      const { result, output } = await captureOutput(() => mailInvitation(invitation, mailEnv({ SMTP_URL: "smtp://127.0.0.1:1" })));
      expect(result).toBe(false);
      expect(output).toContain("mail.invitation_failed");
      expect(output).toContain("could not reach the mail server");
      expect(output).not.toContain("new.member");
      expect(output).not.toContain("abc123");
    } finally {
      restore();
    }
  });
});
