// SIGNUP_MODE on a portal with no team yet (lib/auth/sign-up-policy.ts): the very first sign-up
// starts the first team, even in invite-only mode, and only one of several at once does. Needs an
// empty database, so the file has one of its own (withOwnDatabase).
import { afterEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { signUp } from "@/lib/auth/sign-up";
import { INVITE_ONLY_MESSAGE, signUpPageText } from "@/lib/auth/sign-up-policy";
import { withOwnDatabase, warmPool } from "../setup/db";

const PASSWORD = "the first owner's passphrase";
withOwnDatabase();

afterEach(() => {
  delete process.env.SIGNUP_MODE;
});

describe("the first sign-up on an empty portal", () => {
  it("invite-only: of ten sign-ups at once, exactly one starts the first team and owns it; then the page asks for an invitation", async () => {
    expect(await prisma.team.count()).toBe(0);
    expect(await signUpPageText()).toEqual({ text: expect.stringMatching(/^You are the first person on this portal/), formShown: true });

    await warmPool();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => signUp({ name: `First ${i}`, email: `first-${i}@example.test`, password: PASSWORD }, { ip: `192.0.2.${i + 1}` })),
    );
    const created = results.filter((result) => result.status === "fulfilled");
    const refusals = results.flatMap((result) => (result.status === "rejected" ? [(result.reason as Error).message] : []));
    expect(created).toHaveLength(1);
    expect(refusals).toEqual(Array(9).fill(INVITE_ONLY_MESSAGE));
    expect(await prisma.team.count()).toBe(1);
    expect(await prisma.membership.findMany({ select: { role: true } })).toEqual([{ role: "OWNER" }]);

    expect(await signUpPageText()).toEqual({ text: INVITE_ONLY_MESSAGE, formShown: false });
    await expect(signUp({ name: "Late", email: "late@example.test", password: PASSWORD }, { ip: "192.0.2.50" })).rejects.toThrow(INVITE_ONLY_MESSAGE);
  });

  it("tells what each mode allows on the sign-up page", async () => {
    process.env.SIGNUP_MODE = "open";
    expect(await signUpPageText()).toEqual({ text: "You will start a team of your own and can invite others.", formShown: true });
    process.env.SIGNUP_MODE = "domain:corp.example";
    expect(await signUpPageText()).toEqual({
      text: "Addresses at corp.example can create an account here and join the portal's team as members. Anyone else needs an invitation link from an owner or admin.",
      formShown: true,
    });
  });
});
