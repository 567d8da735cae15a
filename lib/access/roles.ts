/**
 * Who may do what inside a team. Pure functions (no database, no secrets), shared by the data
 * functions that enforce the rules and the pages that hide controls a person may not use.
 */
export const ROLES = ["OWNER", "ADMIN", "MEMBER"] as const;
export type TeamRole = (typeof ROLES)[number];

export const ROLE_LABELS: Record<TeamRole, string> = {
  OWNER: "Owner",
  ADMIN: "Admin",
  MEMBER: "Member",
};

export const ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  OWNER: "Everything an admin can do, and manage other owners.",
  ADMIN: "Invite people, change roles of admins and members, remove them, read the audit log.",
  MEMBER: "Use the portal with their own API credentials; copy team views.",
};

/** Owners and admins manage people, invitations and read the audit log. */
export function canManageTeam(role: TeamRole): boolean {
  return role === "OWNER" || role === "ADMIN";
}

/** Which roles `actorRole` may hand out (by invitation or role change). Admins cannot make owners. */
export function assignableRoles(actorRole: TeamRole): TeamRole[] {
  if (actorRole === "OWNER") return ["OWNER", "ADMIN", "MEMBER"];
  if (actorRole === "ADMIN") return ["ADMIN", "MEMBER"];
  return [];
}

/** Whether `actorRole` may change or remove someone whose role is `targetRole`. Admins cannot touch owners. */
export function canManageMember(actorRole: TeamRole, targetRole: TeamRole): boolean {
  if (actorRole === "OWNER") return true;
  if (actorRole === "ADMIN") return targetRole !== "OWNER";
  return false;
}
