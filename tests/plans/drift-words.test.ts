import { describe, expect, it } from "vitest";
import { describeAuditRecord, sentenceText } from "@/lib/audit-log/describe";
import { driftSentence, driftWho } from "@/lib/plans/drift-words";

/** The drift sentence (lib/plans/drift-words.ts): names only, who as the EMS says, never a value. */
describe("driftSentence", () => {
  const base = { planTitle: "Move CRM hooks", kind: "webhook", recordId: 411, recordName: "CRM hook", changedBy: "jane@example.com" };

  it("names the field, the plan, the record and who", () => {
    expect(driftSentence({ ...base, field: "url" })).toBe(
      "The URL that plan “Move CRM hooks” set on webhook #411 “CRM hook” was changed in the EMS by jane@example.com.",
    );
    expect(driftSentence({ ...base, kind: "group", recordName: null, field: "notification_emails", changedBy: null })).toBe(
      "The notification emails that plan “Move CRM hooks” set on group #411 were changed in the EMS.",
    );
  });

  it("says headers by name only, and a deletion", () => {
    expect(driftSentence({ ...base, field: "headers" })).toBe(
      "The headers that plan “Move CRM hooks” set on webhook #411 “CRM hook” were changed in the EMS by jane@example.com.",
    );
    expect(driftSentence({ ...base, field: "", changedBy: null })).toBe("Webhook #411 “CRM hook”, which plan “Move CRM hooks” changed, was deleted in the EMS.");
  });

  it("an API user is “through the API”, not its consumer key", () => {
    expect(driftWho("API (ems_demo_key)")).toBe(" through the API");
    expect(driftSentence({ ...base, field: "enabled", changedBy: "API (ems_demo_key)" })).not.toContain("ems_demo_key");
  });
});

describe("the audit record of an accepted drift", () => {
  it("names the field by its label, the record and the plan; never a value", () => {
    const words = sentenceText(
      describeAuditRecord({
        action: "plan.drift_accepted",
        metadata: { title: "Move CRM hooks", kind: "webhook", recordId: 411, recordName: "CRM hook", field: "url", fieldLabel: "URL" },
        actorName: "Ada",
        actorEmail: null,
        subjectName: null,
      }),
    );
    expect(words).toBe("Ada accepted the change of “URL” on webhook #411 “CRM hook” made in the EMS after change plan “Move CRM hooks”");
  });
});
