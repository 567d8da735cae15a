import "server-only";
import { AWAITING_APPROVAL } from "./lifecycle";
import type { Actor } from "@/lib/access/actor";
import type { TransactionClient } from "@/lib/db/prisma";
import { plansEnv } from "@/lib/env";
import { SafeError } from "@/lib/errors";

/**
 * How many plans may wait (issue 35: one member stored 201 open drafts, 22 MiB): a person has at
 * most PLANS_MAX_OPEN_PER_PERSON plans drafted and not yet approved (drafts and plans waiting for
 * review, counted by author), a team PLANS_MAX_OPEN_PER_TEAM. A draft that replaces the author's own
 * draft (Edit the change) adds none. Old drafts and cancelled plans go with retention
 * (lib/retention/prune.ts), as saved views' caps do with theirs (lib/views/caps.ts).
 *
 * Counted and written in one transaction under a lock on the team's plans, so two drafts at the cap
 * cannot both see room for one more.
 */
const OPEN = [...AWAITING_APPROVAL];

export async function lockTeamPlans(tx: TransactionClient, teamId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`change-plans:${teamId}`}, 0))`;
}

/** Refuses a new plan past a cap. Call it under lockTeamPlans. */
export async function assertRoomForPlan(tx: TransactionClient, actor: Pick<Actor, "userId" | "teamId">): Promise<void> {
  const { PLANS_MAX_OPEN_PER_PERSON: perPerson, PLANS_MAX_OPEN_PER_TEAM: perTeam } = plansEnv();
  const [counts] = await tx.$queryRaw<{ mine: number; team: number }[]>`
    SELECT count(*) FILTER (WHERE "authorId" = ${actor.userId})::integer AS "mine", count(*)::integer AS "team"
      FROM "ChangePlan" WHERE "teamId" = ${actor.teamId} AND "status" = ANY(${OPEN})`;
  if (counts.mine >= perPerson) {
    throw new SafeError(
      `You have ${counts.mine.toLocaleString("en-US")} plans drafted or waiting for review, the most one person can have. Cancel one you no longer need (Plans, “Only mine”) to draft another.`,
      "plans_person_cap",
    );
  }
  if (counts.team >= perTeam) {
    throw new SafeError(
      `Your team has ${counts.team.toLocaleString("en-US")} plans drafted or waiting for review, the most a team can have. Review or cancel some to draft another.`,
      "plans_team_cap",
    );
  }
}
