import type { Metadata } from "next";
import { requireActor } from "@/lib/auth/session";
import { listPendingInvitations, type PendingInvitation } from "@/lib/teams/invitations";
import { getTeamOverview } from "@/lib/teams/members";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, assignableRoles, canManageMember, canManageTeam } from "@/lib/access/roles";
import { Notice } from "@/components/ui/notice";
import { InviteForm } from "@/components/team/invite-form";
import { LeaveTeamForm } from "@/components/team/leave-team-form";
import { ChangeRoleForm, RemoveMemberForm } from "@/components/team/member-actions";
import { RevokeInvitationForm } from "@/components/team/revoke-invitation-form";
import { TwoFactorRequirementForm } from "@/components/team/two-factor-requirement-form";
import { teamTwoFactorOverview } from "@/lib/teams/two-factor-requirement";
import { ScrollX } from "@/components/ui/scroll-x";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireActor();
  const params = await searchParams;
  const team = await getTeamOverview(actor);
  const manager = canManageTeam(team.yourRole);
  const invitations: PendingInvitation[] = manager ? await listPendingInvitations(actor) : [];
  const roles = assignableRoles(team.yourRole);
  const lastOwner = team.yourRole === "OWNER" && team.ownerCount <= 1;
  const twoFactor = team.yourRole === "OWNER" ? await teamTwoFactorOverview(actor) : null;

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">Team</h1>
        <p className="mt-1 text-sm text-slate-600">
          {team.teamName} · you are {ROLE_LABELS[team.yourRole].toLowerCase()}. {ROLE_DESCRIPTIONS[team.yourRole]}
        </p>
      </div>
      {params.joined ? (
        <Notice tone="success" testId="joined-notice">
          Welcome to {team.teamName}.
        </Notice>
      ) : null}
      {params.left ? (
        <Notice tone="success" testId="left-notice">
          You left your team and now have a team of your own. Open an invitation link to join another one.
        </Notice>
      ) : null}

      <section aria-labelledby="members-heading" className="rounded-xl border border-slate-200 bg-white p-6">
        <h2 id="members-heading" className="text-lg font-semibold">
          Members <span className="text-sm font-normal text-slate-500">({team.members.length})</span>
        </h2>
        <ScrollX className="mt-4">
          <table className="w-full min-w-[40rem] text-left text-sm" data-testid="member-list">
            <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Name
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Role
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Joined
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  API credentials
                </th>
                {manager ? (
                  <th scope="col" className="py-2 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {team.members.map((member) => {
                const manageable = manager && !member.isYou && canManageMember(team.yourRole, member.role);
                return (
                  <tr key={member.membershipId} data-testid="member-row" data-email={member.email} data-membership-id={member.membershipId} className="align-top">
                    <td className="py-3 pr-4">
                      <div className="font-medium text-slate-900">
                        {member.name} {member.isYou ? <span className="text-xs font-normal text-slate-500">(you)</span> : null}
                      </div>
                      <div className="text-slate-500">{member.email}</div>
                    </td>
                    <td className="py-3 pr-4" data-testid="member-role">
                      {ROLE_LABELS[member.role]}
                    </td>
                    <td className="py-3 pr-4 text-slate-600">
                      <Time value={member.joinedAt} />
                    </td>
                    <td className="py-3 pr-4 text-slate-600">{member.hasCredential ? "Saved" : "None"}</td>
                    {manager ? (
                      <td className="py-3">
                        {manageable ? (
                          <div className="space-y-2">
                            <ChangeRoleForm membershipId={member.membershipId} name={member.name} role={member.role} roles={roles} />
                            <RemoveMemberForm membershipId={member.membershipId} name={member.name} />
                          </div>
                        ) : (
                          <span className="text-xs text-slate-500">{member.isYou ? "" : "Only an owner can change an owner."}</span>
                        )}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollX>
      </section>

      {manager ? (
        <section aria-labelledby="invite-heading" className="rounded-xl border border-slate-200 bg-white p-6">
          <h2 id="invite-heading" className="text-lg font-semibold">
            Invite someone
          </h2>
          <p className="mb-4 mt-1 text-sm text-slate-600">An invitation link works once and for 7 days. Only its fingerprint is stored, so copy it when it is shown.</p>
          <InviteForm roles={roles} />

          <h3 className="mt-8 text-sm font-semibold text-slate-900">Open invitations</h3>
          {invitations.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500" data-testid="no-invitations">
              No open invitations.
            </p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100 text-sm" data-testid="invitation-list">
              {invitations.map((invitation) => {
                const label = `invitation for a new ${ROLE_LABELS[invitation.role].toLowerCase()}${invitation.email ? ` (${invitation.email})` : ""}`;
                return (
                  <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <span>
                      <strong>{ROLE_LABELS[invitation.role]}</strong>
                      {invitation.email ? ` · ${invitation.email}` : " · anyone with the link"}
                      <span className="text-slate-500">
                        {" "}
                        · by {invitation.createdByEmail ?? "a former member"} · expires <Time value={invitation.expiresAt} />
                      </span>
                    </span>
                    {canManageMember(team.yourRole, invitation.role) ? <RevokeInvitationForm invitationId={invitation.id} label={label} /> : null}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      ) : null}

      {twoFactor ? (
        <section aria-labelledby="team-two-factor-heading" className="rounded-xl border border-slate-200 bg-white p-6">
          <h2 id="team-two-factor-heading" className="text-lg font-semibold">
            Two-factor sign-in
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600" data-testid="team-two-factor-status">
            {twoFactor.required
              ? "Required: everyone signs in with a code from their phone. Members without it are asked to set it up before anything else."
              : "Not required. When you require it, members without two-factor must set it up before they can use anything else."}{" "}
            {twoFactor.membersWithout === 0
              ? "Everyone in the team uses it."
              : `${twoFactor.membersWithout} ${twoFactor.membersWithout === 1 ? "person does" : "people do"} not use it yet.`}
          </p>
          <div className="mt-4">
            <TwoFactorRequirementForm required={twoFactor.required} ownTwoFactor={actor.twoFactorEnabled} />
          </div>
        </section>
      ) : null}

      <section aria-labelledby="leave-heading" className="rounded-xl border border-slate-200 bg-white p-6">
        <h2 id="leave-heading" className="text-lg font-semibold">
          Leave {team.teamName}
        </h2>
        {lastOwner ? (
          <p className="mt-2 text-sm text-slate-600" data-testid="last-owner-note">
            You are the team&apos;s only owner, so you cannot leave. Make another member an owner first.
          </p>
        ) : (
          <div className="mt-4">
            <LeaveTeamForm teamName={team.teamName} />
          </div>
        )}
      </section>
    </div>
  );
}
