// Signing in (lib/auth/sign-in.ts, through next-auth's authorize in lib/auth/options.ts) under the
// throttle, with the default limits: an attacker elsewhere cannot lock the owner out, and the
// client's address is the connection's, not one the client wrote.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { CredentialsConfig } from "next-auth/providers/credentials";
import { prisma } from "@/lib/db/prisma";
import { authOptions } from "@/lib/auth/options";
import { hashPassword } from "@/lib/auth/password";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { createTeam } from "../teams/fixtures";

const PASSWORD = "the owner's right password";
const address = () => `198.19.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

async function owner() {
  const team = await createTeam();
  await prisma.user.update({ where: { id: team.userId }, data: { passwordHash: await hashPassword(PASSWORD) } });
  return team;
}

/** What the sign-in form shows for an attempt: "signed in", or the error's words. */
async function signIn(email: string, password: string, ip: string): Promise<string> {
  try {
    await signInWithPassword({ email, password }, { ip, userAgent: "vitest" });
    return "signed in";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("sign-in throttle, as the form shows it", () => {
  it("refuses the address that failed ten times, even with the right password, and tells how long to wait", async () => {
    const { email } = await owner();
    const attacker = address();
    for (let i = 1; i <= 10; i++) expect(await signIn(email, `wrong password ${i}`, attacker)).toBe("Wrong email or password.");
    expect(await signIn(email, PASSWORD, attacker)).toBe("Too many failed sign-in attempts. Try again in 15 minutes.");
  });

  it("lets the owner in from their own address after many failures elsewhere; a new address waits, and is told how long", async () => {
    const { email } = await owner();
    const home = address();
    expect(await signIn(email, PASSWORD, home)).toBe("signed in");
    // Ten wrong passwords from one place, then twenty more from two others.
    const attacker = address();
    for (let i = 1; i <= 10; i++) expect(await signIn(email, `wrong password ${i}`, attacker)).toBe("Wrong email or password.");
    await prisma.authAttempt.createMany({
      data: [address(), address()].flatMap((other) => Array.from({ length: 10 }, () => ({ kind: "password", account: email, address: other, success: false }))),
    });

    expect(await signIn(email, PASSWORD, home)).toBe("signed in");
    expect(await signIn(email, PASSWORD, attacker)).toBe("Too many failed sign-in attempts. Try again in 15 minutes.");
    // 30 failures: a new address waits the longest delay (AUTH_ACCOUNT_DELAY_MAX_SECONDS, 5 minutes).
    expect(await signIn(email, PASSWORD, address())).toBe("Too many failed sign-in attempts. Try again in 5 minutes.");
  });

  it("throttles an unknown email exactly like a real one (no hint that the account exists)", async () => {
    const email = `nobody-${randomUUID().slice(0, 8)}@example.test`;
    const attacker = address();
    for (let i = 1; i <= 10; i++) expect(await signIn(email, `guess ${i}`, attacker)).toBe("Wrong email or password.");
    expect(await signIn(email, PASSWORD, attacker)).toBe("Too many failed sign-in attempts. Try again in 15 minutes.");
  });
});

describe("next-auth's authorize", () => {
  const credentials = authOptions.providers[0] as unknown as { options: CredentialsConfig };
  const authorize = (body: Record<string, string>, headers: Record<string, string>) =>
    credentials.options.authorize(body, { headers, body, query: {}, method: "POST" } as never);

  it("records the connection's address for the session and the throttle, not the client's X-Forwarded-For", async () => {
    const { email } = await owner();
    const peer = address();
    const user = (await authorize({ email, password: PASSWORD }, { "x-forwarded-for": `6.6.6.6, ${peer}`, "user-agent": "vitest" })) as unknown as { sid: string };
    expect((await prisma.userSession.findUniqueOrThrow({ where: { id: user.sid } })).ip).toBe(peer);
    expect(await prisma.authAttempt.findMany({ where: { account: email }, select: { address: true, success: true } })).toEqual([{ address: peer, success: true }]);
  });

  it("answers a throttled attempt with the form's words", async () => {
    const { email } = await owner();
    const peer = address();
    for (let i = 1; i <= 10; i++) await expect(authorize({ email, password: `wrong ${i}` }, { "x-forwarded-for": peer })).rejects.toThrow("Wrong email or password.");
    // Rotating the address the client writes changes nothing.
    await expect(authorize({ email, password: PASSWORD }, { "x-forwarded-for": `203.0.113.99, ${peer}` })).rejects.toThrow(
      "Too many failed sign-in attempts. Try again in 15 minutes.",
    );
  });
});
