/**
 * Who may do what with a saved view. Pure rules, so the data functions and the pages agree:
 * - a personal view is its owner's alone;
 * - a team view is seen by everyone in its team; owners and admins manage it (rename, delete,
 *   unshare), and so does the person who made it; other members copy it.
 */
import type { Actor } from "@/lib/access/actor";
import { canManageTeam } from "@/lib/access/roles";

export interface ViewAccessFacts {
  teamId: string;
  ownerId: string | null;
  scope: "PERSONAL" | "TEAM";
}

type ActorFacts = Pick<Actor, "userId" | "teamId" | "role">;

export function canSeeView(actor: ActorFacts, view: ViewAccessFacts): boolean {
  if (view.teamId !== actor.teamId) return false;
  return view.scope === "TEAM" || view.ownerId === actor.userId;
}

export function canManageView(actor: ActorFacts, view: ViewAccessFacts): boolean {
  if (!canSeeView(actor, view)) return false;
  if (view.scope === "PERSONAL") return view.ownerId === actor.userId;
  return canManageTeam(actor.role) || view.ownerId === actor.userId;
}
