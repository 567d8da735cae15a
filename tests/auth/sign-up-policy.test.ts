// SIGNUP_MODE (lib/env.ts) and the rule for sign-ups without an invitation (lib/auth/sign-up-policy.ts).
import { describe, expect, it } from "vitest";
import { signUpEnv } from "@/lib/env";
import { INVITE_ONLY_MESSAGE, decideWithoutInvitation, domainOnlyMessage } from "@/lib/auth/sign-up-policy";

const modeOf = (SIGNUP_MODE: string | undefined) => signUpEnv({ SIGNUP_MODE }).SIGNUP_MODE;

describe("SIGNUP_MODE", () => {
  it("is invite-only unless set", () => {
    expect(modeOf(undefined)).toEqual({ kind: "invite-only" });
    expect(modeOf(" ")).toEqual({ kind: "invite-only" });
  });

  it("reads open, invite-only and a list of domains", () => {
    expect(modeOf("open")).toEqual({ kind: "open" });
    expect(modeOf("Invite-Only")).toEqual({ kind: "invite-only" });
    expect(modeOf("domain:Example.com, @corp.example,example.com")).toEqual({ kind: "domain", domains: ["example.com", "corp.example"] });
  });

  it("refuses anything else, naming the variable and the forms it takes", () => {
    for (const value of ["closed", "domain:", "domain:not a domain", "domain:example", "open,invite-only"]) {
      expect(() => modeOf(value), value).toThrow(/SIGNUP_MODE must be "open", "invite-only" or "domain:"/);
    }
  });
});

describe("a sign-up without an invitation", () => {
  const own = { allowed: true, placement: { kind: "own-team" } };

  it("open: always, with a team of one's own", () => {
    expect(decideWithoutInvitation({ kind: "open" }, "team-1", "a@example.test")).toEqual(own);
  });

  it("invite-only: only the first, on a portal with no team", () => {
    expect(decideWithoutInvitation({ kind: "invite-only" }, null, "a@example.test")).toEqual(own);
    expect(decideWithoutInvitation({ kind: "invite-only" }, "team-1", "a@example.test")).toEqual({ allowed: false, message: INVITE_ONLY_MESSAGE, code: "invite_only" });
  });

  it("domain: addresses at exactly those domains join the oldest team (or start it)", () => {
    const mode = { kind: "domain" as const, domains: ["corp.example", "lab.example"] };
    expect(decideWithoutInvitation(mode, "team-1", "a@lab.example")).toEqual({ allowed: true, placement: { kind: "join-team", teamId: "team-1" } });
    expect(decideWithoutInvitation(mode, null, "a@corp.example")).toEqual(own);
    for (const email of ["a@sub.corp.example", "a@corp.example.evil", "corp.example@evil.example", "a@example.test"]) {
      expect(decideWithoutInvitation(mode, "team-1", email), email).toEqual({ allowed: false, message: domainOnlyMessage(mode.domains), code: "domain_not_allowed" });
    }
    expect(domainOnlyMessage(["a.example", "b.example", "c.example"])).toMatch(/only addresses at a\.example, b\.example or c\.example can sign up/);
  });
});
