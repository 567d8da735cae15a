import "server-only";
import type { Actor } from "@/lib/access/actor";
import type { TransactionClient } from "@/lib/db/prisma";
import { viewsEnv } from "@/lib/env";
import { SafeError } from "@/lib/errors";

/**
 * How many saved views there may be (issue 24, finding 3: one member with 800 team views made every
 * teammate's pages heavy). Two caps, both counted in the actor's team:
 * - a person OWNS at most VIEWS_MAX_PER_PERSON views: their personal views and the views they shared
 *   with the team together (a shared view stays its maker's, so sharing or unsharing one never moves
 *   it between the two counts);
 * - a team SHARES at most VIEWS_MAX_PER_TEAM views: its team-scoped views, whoever made them (the
 *   views of former members included).
 * A save, a copy and a restore add one to the person's count (and to the team's when shared); sharing
 * a personal view adds one to the team's. A view over a lowered cap stays; only new ones are refused.
 *
 * Counting and writing happen in one transaction under a lock on the team's views (a transaction
 * advisory lock, released at commit), so two saves at 99 cannot both see room for one more.
 */

export interface ViewCaps {
  perPerson: number;
  perTeam: number;
}

export function viewCaps(): ViewCaps {
  const env = viewsEnv();
  return { perPerson: env.VIEWS_MAX_PER_PERSON, perTeam: env.VIEWS_MAX_PER_TEAM };
}

/**
 * Serialises every change that adds a view to a team's counts (saves, copies, restores, sharing),
 * and its name check, until the surrounding transaction ends. An advisory lock rather than a row
 * lock on Team: nothing else that touches the team row waits for it.
 */
export async function lockTeamViews(tx: TransactionClient, teamId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`saved-views:${teamId}`}, 0))`;
}

/** What a change adds: a view the actor will own, a view the team will share, or both. */
export interface ViewsAdded {
  owned: boolean;
  shared: boolean;
}

/** Refuses the change when it would take the actor or the team past a cap. Call it under lockTeamViews. */
export async function assertRoomForView(tx: TransactionClient, actor: Actor, added: ViewsAdded): Promise<void> {
  const caps = viewCaps();
  const [counts] = await tx.$queryRaw<{ owned: number; shared: number }[]>`
    SELECT count(*) FILTER (WHERE "ownerId" = ${actor.userId})::integer AS "owned",
           count(*) FILTER (WHERE "scope" = 'TEAM')::integer AS "shared"
    FROM "SavedView" WHERE "teamId" = ${actor.teamId}`;
  if (added.owned && counts.owned >= caps.perPerson) {
    throw new SafeError(`You have ${counts.owned.toLocaleString("en-US")} saved views, the most one person can keep. Delete one to save another.`, "views_person_cap");
  }
  if (added.shared && counts.shared >= caps.perTeam) {
    throw new SafeError(
      `Your team shares ${counts.shared.toLocaleString("en-US")} views, the most a team can share. Delete a team view (or make one personal) to share another; you can still save this one for yourself.`,
      "views_team_cap",
    );
  }
}
