// The one mailer (lib/mail/send.ts) goes through the outbound door's rules: the server SMTP_URL
// names (the operator's, so a private relay is fine), resolved by the door's resolver and connected
// to at the checked address; never a proxy or another host named in SMTP_URL's options; any other
// mail server judged like every public destination.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkMailDestination, mailDestinationPolicy, refusalForAddresses } from "@/lib/ems/destination";
import { BlockedDestinationError } from "@/lib/ems/errors";
import { admitMailServer, setHostResolver, type HostResolver } from "@/lib/ems/outbound";
import { mailEnv } from "@/lib/env";
import { sendEmail } from "@/lib/mail/send";

const received: { to: string[] }[] = [];
let connections = 0;
let server: SMTPServer;
let port: number;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let restoreResolver: HostResolver | null = null;
afterEach(() => {
  if (restoreResolver) setHostResolver(restoreResolver);
  restoreResolver = null;
});

const mail = { to: "someone@example.test", subject: "Hello", text: "A test." };
const never = () => new AbortController().signal;

describe("sendEmail through the door", () => {
  it("resolves SMTP_URL's host through the door's resolver and connects to that address (no DNS of its own)", async () => {
    restoreResolver = setHostResolver(async (host) => (host === "relay.mail.example" ? [{ address: "127.0.0.1", family: 4 }] : []));
    const outcome = await sendEmail(mail, mailEnv({ SMTP_URL: `smtp://relay.mail.example:${port}` }), never());
    expect(outcome).toEqual({ ok: true });
    expect(received.at(-1)?.to).toEqual(["someone@example.test"]);
  });

  it.each(["proxy=socks5://127.0.0.1:1080", "service=gmail", "host=smtp.elsewhere.example", "port=25"])(
    "refuses SMTP_URL's option %s, which would send mail past its own server, without connecting anywhere",
    async (option) => {
      const before = connections;
      const outcome = await sendEmail(mail, mailEnv({ SMTP_URL: `smtp://127.0.0.1:${port}?${option}` }), never());
      expect(outcome).toMatchObject({ ok: false, permanent: true, reason: expect.stringContaining(option.split("=")[0]!) });
      expect(connections).toBe(before);
    },
  );
});

describe("the mail policy: the same classifier as every other destination", () => {
  const listing = (smtpUrl: string) => mailDestinationPolicy(smtpUrl);

  it("SMTP_URL's own server is listed by the operator, private or not; its default port counts as written", () => {
    expect(checkMailDestination(new URL("smtp://127.0.0.1:2525"), listing("smtp://user:pass@127.0.0.1:2525"))).toEqual({ ok: true, kind: "listed" });
    expect(checkMailDestination(new URL("smtps://Relay.Internal"), listing("smtps://relay.internal:465"))).toEqual({ ok: true, kind: "listed" });
  });

  it("any other mail server is judged as public: private names and addresses refused, by name and after DNS", () => {
    const policy = listing("smtp://relay.internal:587");
    expect(checkMailDestination(new URL("smtp://relay.internal:25"), policy)).toMatchObject({ ok: false, refusal: { reason: "private-address" } });
    expect(checkMailDestination(new URL("smtp://10.0.0.5:587"), policy)).toMatchObject({ ok: false, refusal: { reason: "private-address" } });
    expect(checkMailDestination(new URL("smtp://smtp.example.com:587"), policy)).toEqual({ ok: true, kind: "public" });
    expect(refusalForAddresses("public", ["10.0.0.5"])).toMatchObject({ reason: "private-address" });
    expect(checkMailDestination(new URL("http://smtp.example.com"), policy)).toMatchObject({ ok: false });
  });

  it("admitMailServer refuses a public name that resolves to a private address, before any connection", async () => {
    restoreResolver = setHostResolver(async () => [{ address: "192.168.4.20", family: 4 }]);
    await expect(admitMailServer(new URL("smtp://smtp.example.com:587"), mailDestinationPolicy(undefined), never())).rejects.toBeInstanceOf(BlockedDestinationError);
  });
});
