// Every outbound connection of the portal's server code goes through one door (lib/ems/outbound.ts),
// where the destination policy is enforced: no other module may open one. Mail is the one other
// kind: SMTP connections (nodemailer) are opened by lib/mail/send.ts alone, after the door has
// checked and resolved the server (`admitMailServer`). lib/sandbox is the
// sandbox itself (a server, and a test client for its admin endpoint); a browser's same-origin
// fetch("/…") reaches only the portal.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const DOOR = "lib/ems/outbound.ts";
const MAIL_DOOR = "lib/mail/send.ts";
const SKIP = ["lib/sandbox/", "lib/generated/"];
/**
 * Modules that import node:http for the portal's own server, never to connect anywhere:
 * lib/auth/forwarded-for.ts appends each incoming connection's address to X-Forwarded-For.
 */
const SERVER_ONLY_HTTP = ["lib/auth/forwarded-for.ts"];
const CLIENT_CALL = /\b(https?|http2|net|tls)\.(request|get|connect|createConnection|Agent)\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (SKIP.some((prefix) => `${relative}/`.startsWith(prefix))) return [];
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [relative] : [];
  });
}

/** What opens a connection: fetch to anything but a same-origin path, or the modules that connect. */
const OPENS_A_CONNECTION = [
  /\bfetch\(\s*(?![`'"]\/)/,
  /^import (?!type\b)[^;]*from ["'](node:)?(http|https|http2|tls|dgram)["']/m,
  /from ["']undici["']|require\(["'](node:)?(http|https|http2|tls|net|undici)["']\)/,
  /\b(net|tls)\.(connect|createConnection)\(/,
];

/** What opens an SMTP connection: nodemailer (or its SMTP modules), or a raw SMTP client. */
const OPENS_AN_SMTP_CONNECTION = /from ["'](nodemailer|smtp-connection|emailjs)(\/[^"']*)?["']|require\(["'](nodemailer|smtp-connection)(\/[^"']*)?["']\)/;

describe("one outbound door", () => {
  it(`only ${DOOR} opens connections from lib/, app/ and components/`, () => {
    const files = ["lib", "app", "components"].flatMap(sourceFiles);
    expect(files).toContain(DOOR);
    const offenders = files.filter(
      (file) => file !== DOOR && !SERVER_ONLY_HTTP.includes(file) && OPENS_A_CONNECTION.some((pattern) => pattern.test(readFileSync(path.join(ROOT, file), "utf8"))),
    );
    expect(offenders).toEqual([]);
    // What those modules may not do with node:http: open a connection.
    expect(SERVER_ONLY_HTTP.filter((file) => CLIENT_CALL.test(readFileSync(path.join(ROOT, file), "utf8")))).toEqual([]);
  });

  it(`only ${MAIL_DOOR} opens SMTP connections, and only after the door has admitted the server`, () => {
    const files = ["lib", "app", "components"].flatMap(sourceFiles);
    const openers = files.filter((file) => OPENS_AN_SMTP_CONNECTION.test(readFileSync(path.join(ROOT, file), "utf8")));
    expect(openers).toEqual([MAIL_DOOR]);
    expect(readFileSync(path.join(ROOT, MAIL_DOOR), "utf8")).toMatch(/\badmitMailServer\(/);
  });
});
