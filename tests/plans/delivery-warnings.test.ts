import { describe, expect, it } from "vitest";
import { describeOperation } from "@/lib/plans/diff";
import type { DraftOperation } from "@/lib/plans/operations";

// What a reviewer must not miss about where deliveries go (issue 35): credentials sent to a new
// address, an address whose text before "@" poses as its host, an internal address. Names only.
const hook = {
  id: 411,
  name: "CRM",
  url: "https://crm.example.com/in",
  group_id: 7,
  headers: [{ key: "X-Api-Key", value: "k-secret-411" }],
};
const groupHeaders = (id: number) => (id === 7 ? ["Authorization"] : id === 8 ? ["X-Tenant-Token"] : []);
const update = (changes: Record<string, unknown>): DraftOperation => ({
  operation: "webhooks.update",
  recordId: hook.id,
  before: hook as never,
  changes: changes as never,
});
const warningsOf = (op: DraftOperation) => describeOperation(op, { groupHeaders }).warnings;

describe("the warnings under a plan's operation", () => {
  it("a new URL: which headers, its own and its group's, now go to the new host (names, never values)", () => {
    const [warning] = warningsOf(update({ url: "https://collector.example.net/hook" }));
    expect(warning).toBe(
      "From now on its headers “X-Api-Key” and its group's “Authorization” go with every delivery to collector.example.net, no longer to crm.example.com.",
    );
    expect(warning).not.toContain("k-secret");
  });

  it("a new webhook in a group with headers: the group's headers go to its address", () => {
    expect(
      warningsOf({
        operation: "webhooks.create",
        before: null,
        changes: { name: "n", url: "https://new.example.org/x", trigger_object: "registrant", group_id: 7 } as never,
      }),
    ).toEqual(["Every delivery carries its group's “Authorization” to new.example.org."]);
  });

  it("a move into another group: that group's headers now go to the webhook's address", () => {
    expect(warningsOf(update({ group_id: 8 }))).toEqual(["In its new group, the group's headers “X-Tenant-Token” go with every delivery to crm.example.com."]);
  });

  it("an address whose text before “@” poses as the host", () => {
    const warnings = warningsOf(update({ url: "https://legit.example.com@evil.example/in" }));
    expect(warnings[0]).toBe("The address starts with “legit.example.com@”, which reads like a host but is not: deliveries go to evil.example.");
    expect(warnings[1]).toMatch(/to evil\.example, no longer to crm\.example\.com/);
  });

  it("internal addresses: a cloud's metadata service, a private network, this machine", () => {
    for (const url of ["http://169.254.169.254/latest/meta-data", "https://10.0.0.5/hook", "http://localhost:8080/x", "https://[::1]/x", "https://intranet.internal/x"]) {
      expect(
        warningsOf({ operation: "webhooks.create", before: null, changes: { name: "n", url, trigger_object: "registrant", group_id: 9 } as never }).join(" "),
        url,
      ).toMatch(/is an internal address/);
    }
  });

  it("nothing to say about a rename, a public address on a new webhook without headers, or a group's own edit", () => {
    expect(warningsOf(update({ name: "CRM 2" }))).toEqual([]);
    expect(
      warningsOf({
        operation: "webhooks.create",
        before: null,
        changes: { name: "n", url: "https://hooks.example.org/x", trigger_object: "registrant", group_id: 9 } as never,
      }),
    ).toEqual([]);
    expect(warningsOf({ operation: "webhook-groups.update", recordId: 7, before: { id: 7, name: "G" } as never, changes: { name: "G2" } as never })).toEqual([]);
  });
});
