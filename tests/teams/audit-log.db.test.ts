import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { isSafeError } from "@/lib/errors";
import { saveCredential } from "@/lib/credentials/store";
import { AUDIT_PAGE_SIZE, listAuditLog } from "@/lib/teams/audit-log";
import { createInvitation } from "@/lib/teams/invitations";
import { addMember, createTeam } from "./fixtures";

describe("audit log page data", () => {
  it("is for owners and admins only", async () => {
    const owner = await createTeam();
    const member = await addMember(owner, "MEMBER");
    const admin = await addMember(owner, "ADMIN");
    await expect(listAuditLog(member)).rejects.toSatisfy((error) => isSafeError(error) && (error as { code: string }).code === "forbidden");
    await expect(listAuditLog(admin)).resolves.toBeTruthy();
  });

  it("pages newest first, shows only the actor's team, and never a secret or a link token", async () => {
    const owner = await createTeam();
    const other = await createTeam();
    await createInvitation(other, { role: "MEMBER" });
    const { token } = await createInvitation(owner, { role: "ADMIN" });
    await saveCredential(owner, { baseUrl: "https://ems.example.com", consumerKey: "audit-key-9876", consumerSecret: "audit secret value" });
    // A writer that slipped: such keys are dropped from the page anyway.
    await prisma.auditLog.create({ data: { teamId: owner.teamId, action: "credential.saved", metadata: { secret: "leaked?", consumerSecret: "leaked?", note: "ok" } } });
    await prisma.auditLog.createMany({
      data: Array.from({ length: AUDIT_PAGE_SIZE + 5 }, (_, i) => ({ teamId: owner.teamId, action: "credential.tested", createdAt: new Date(Date.now() - (i + 1) * 60_000) })),
    });

    const first = await listAuditLog(owner);
    expect(first.totalCount).toBe(AUDIT_PAGE_SIZE + 5 + 3);
    expect(first.pageCount).toBe(2);
    expect(first.records).toHaveLength(AUDIT_PAGE_SIZE);
    const times = first.records.map((r) => r.createdAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const second = await listAuditLog(owner, { page: 2 });
    expect(second.records).toHaveLength(8);
    expect(new Set([...first.records, ...second.records].map((r) => r.id)).size).toBe(AUDIT_PAGE_SIZE + 8);
    expect((await listAuditLog(owner, { page: 99 })).page).toBe(2);

    const everything = JSON.stringify([first, second]);
    expect(everything).not.toContain(token);
    expect(everything).not.toMatch(/audit-key-9876|audit secret value|leaked\?/);
    expect(everything).toContain("9876");
    expect(first.records.some((r) => r.details.some((d) => d.label === "note"))).toBe(true);
  });
});
