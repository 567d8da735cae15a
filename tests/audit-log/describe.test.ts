import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, AUDIT_ACTION_GROUPS, actionLabel, actionsOfFilter, describeAuditRecord, sentenceText } from "@/lib/audit-log/describe";

const say = (action: string, metadata: unknown = null, names: { actor?: string | null; subject?: string | null; email?: string | null } = {}) =>
  sentenceText(
    describeAuditRecord({
      action,
      metadata,
      actorName: names.actor === undefined ? "Ada" : names.actor,
      actorEmail: names.email ?? null,
      subjectName: names.subject ?? null,
    }),
  );

describe("audit records in words", () => {
  it("names the actor and the subject", () => {
    expect(say("team.role_changed", { email: "bob@example.test", from: "MEMBER", to: "ADMIN" }, { subject: "Bob Builder" })).toBe(
      "Ada changed Bob Builder from Member to Admin",
    );
    expect(say("team.member_removed", { role: "MEMBER" }, { subject: "Bob Builder" })).toBe("Ada removed Bob Builder from the team");
    expect(say("team.member_removed", { role: "MEMBER" })).toBe("Ada removed a former member from the team");
    expect(say("view.shared", { name: "Live events", page: "events" })).toBe("Ada shared the view “Live events” of events with the team");
    expect(say("auth.sign_in_failed", null, { actor: null, email: "ada@example.com" })).toBe("Sign-in failed for ada@example.com");
    expect(say("team.joined", { role: "ADMIN", invitationId: "inv_1" }, { subject: "Bob Builder" })).toBe("Bob Builder joined the team as Admin");
    expect(say("invitation.created", { role: "ADMIN", email: null })).toBe("Ada created an invitation link for a new Admin");
  });

  it("has a sentence and a label in words for every action, with no key, id or camelCase", () => {
    for (const action of AUDIT_ACTIONS) {
      const sentence = say(action, {});
      // A fix the team's policy drafted is the portal's own doing, after a sync: nobody acted.
      expect(sentence, action).toMatch(action === "plan.drafted_by_policy" ? /^EMS Portal drafted a fix for the team/ : /^(Ada|Sign-in failed)/);
      expect(sentence, action).not.toContain("does not describe");
      expect(sentence, action).not.toMatch(/undefined|null|\[object|[a-z][A-Z]|_|\./);
      expect(actionLabel(action), action).not.toMatch(/[._]/);
    }
    expect(actionLabel("something.new")).toBe("Other activity");
    expect(say("something.new", { secretKey: "x" })).toBe("Ada did something this version of the portal does not describe");
  });

  it("says what a check's policy became, what new events go to, and a fix the portal drafted", () => {
    expect(say("health.policy_changed", { ruleId: "plain-http-url", from: "tell", to: "draft" })).toMatch(
      /^Ada set what a health check does \(“.+”\) from “Tell us” to “Draft the fix”$/,
    );
    expect(say("coverage.new_event_webhooks_changed", { after: { webhookIds: [411, 412], groupId: 9 } })).toBe(
      "Ada set the webhooks every new event should have to webhooks #411, #412 and every webhook of group #9",
    );
    expect(say("plan.drafted_by_policy", { check: "group-without-notification-emails", title: "Add a notification address: 18 findings", findings: 18 })).toMatch(
      /^EMS Portal drafted a fix for the team and sent it for review \(“.+”\).*, for 18 findings$/,
    );
  });

  it("reads metadata defensively and uses the health rule's and triggers' names", () => {
    expect(say("team.role_changed", "not an object", { subject: "Bob" })).toBe("Ada changed the role of Bob");
    expect(say("coverage.requirements_changed", { before: [], after: ["registrant:insert", "registrant:delete"] })).toBe(
      "Ada changed the required triggers from none to Registrant insert, Registrant delete",
    );
    expect(say("health.muted", { ruleId: "no-such-rule", reason: "Internal endpoint" })).toBe("Ada muted a health finding, because “Internal endpoint”");
    expect(say("health.unmuted", { ruleId: "plain-http-url" })).toBe("Ada unmuted a health finding (“Webhook URL is not HTTPS”)");
    expect(say("history.schedule_changed", { from: 60, to: 1440 })).toBe("Ada changed the tracking schedule from every hour to every day");
    expect(say("auth.other_sessions_ended", { sessions: 1 })).toBe("Ada signed out of 1 other session");
  });

  it("filters by one action or a whole group", () => {
    expect(actionsOfFilter("team.role_changed")).toEqual(["team.role_changed"]);
    expect(actionsOfFilter("team")).toEqual(AUDIT_ACTION_GROUPS.find((g) => g.key === "team")!.actions);
    expect(actionsOfFilter("teamRoleChanged")).toBeNull();
    // Every action is in exactly one group, and no group key looks like an action.
    const grouped = AUDIT_ACTION_GROUPS.flatMap((g) => g.actions);
    expect([...grouped].sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
    for (const group of AUDIT_ACTION_GROUPS) expect(group.key).not.toContain(".");
  });
});
