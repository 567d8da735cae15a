// A real SMTP server on loopback that keeps what it receives: for the tests of mail (invitations,
// security notices, alerts). No authentication, no TLS; each test file starts its own on a free port.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  /** The raw message, headers and body (quoted-printable where the sender chose it). */
  body: string;
}

export interface SmtpReceiver {
  /** `smtp://127.0.0.1:PORT`, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let body = "";
      stream.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), body });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
