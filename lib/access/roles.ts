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

/**
 * What each role may do, as data: the one answer to "who may" that guards, data functions and the
 * pages that hide controls all read. A new capability gets its own name here rather than borrowing
 * one that means something else (approving a plan is not managing people).
 */
export const PERMISSIONS = {
  /** Manage people and invitations, read the audit log. */
  manageTeam: ["OWNER", "ADMIN"],
  /** Approve or reject a change plan; send or cancel a plan someone else drafted. */
  approvePlans: ["OWNER", "ADMIN"],
  /** Apply an approved change plan to the EMS, or stop one being applied. */
  applyPlans: ["OWNER", "ADMIN"],
  /** Decide whether the team's plans need a second person's approval. */
  setPlanReview: ["OWNER"],
} as const satisfies Record<string, readonly TeamRole[]>;
export type Permission = keyof typeof PERMISSIONS;

/** Whether `role` holds `permission` (PERMISSIONS). */
export function hasPermission(role: TeamRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly TeamRole[]).includes(role);
}

/** Owners and admins manage people, invitations and read the audit log. */
export function canManageTeam(role: TeamRole): boolean {
  return hasPermission(role, "manageTeam");
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
