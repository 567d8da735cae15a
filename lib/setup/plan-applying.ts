import "server-only";
import type { Actor } from "@/lib/access/actor";
import { prisma } from "@/lib/db/prisma";
import { ownAccountKey } from "@/lib/ems-access/account-readers";
import { PlanStatus } from "@/lib/generated/prisma/enums";

/**
 * Whether a plan is being applied now to the account this person's own credential reads: a plan
 * `applying` under a live lease (lib/plans/apply.ts keeps it alive while its applier lives), of any
 * team, since every team on the account sees what it writes. A plan whose applier died (its lease
 * expired) does not count: nothing is changing the account until another instance takes it over.
 *
 * Why it matters to what is computed from the whole setup (lib/setup/stored-results.ts): each of a
 * plan's writes changes one stored page of the setup, so every Health or Coverage view between two
 * writes read and checked all 5,000 groups again, a result out of date a second later.
 *
 * One statement over the few plans applying in the whole portal; the credential is opened (to know
 * its account) only when some plan is applying.
 */
export async function planApplyingToOwnAccount(actor: Pick<Actor, "userId">): Promise<boolean> {
  const applying = await prisma.changePlan.findMany({
    where: { status: PlanStatus.applying, leaseUntil: { gt: new Date() } },
    select: { accountKey: true },
    distinct: ["accountKey"],
  });
  if (applying.length === 0) return false;
  const own = await ownAccountKey(actor.userId);
  return own !== null && applying.some((plan) => plan.accountKey === own);
}
