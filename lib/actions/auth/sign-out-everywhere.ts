"use server";

import { prisma } from "@/lib/db/prisma";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { auditByActor } from "@/lib/audit/log";
import type { ActionState } from "@/lib/forms/action-state";

/** Ends every session of the signed-in person, this one included, at their next request. */
export async function signOutEverywhereAction(): Promise<ActionState> {
  const actor = await requireActor();
  const ip = await clientIp();
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: actor.userId }, data: { sessionVersion: { increment: 1 } } });
    await tx.userSession.updateMany({ where: { userId: actor.userId, revokedAt: null }, data: { revokedAt: new Date() } });
    await auditByActor(actor, { action: "auth.sign_out_everywhere", ip }, tx);
  });
  return { status: "success" };
}
