import type { Metadata } from "next";
import { requireActor } from "@/lib/auth/session";
import { listPendingInvitations, type PendingInvitation } from "@/lib/teams/invitations";
import { getTeamOverview } from "@/lib/teams/members";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, assignableRoles, canManageMember, canManageTeam } from "@/lib/access/roles";
import { Notice } from "@/components/ui/notice";
import { SettingsTable, type SettingsColumn } from "@/components/settings/settings-table";
import { InviteForm } from "@/components/team/invite-form";
import { LeaveTeamForm } from "@/components/team/leave-team-form";
import { ChangeRoleForm, RemoveMemberForm } from "@/components/team/member-actions";
import { RevokeInvitationForm } from "@/components/team/revoke-invitation-form";
import { TwoFactorRequirementForm } from "@/components/team/two-factor-requirement-form";
import { PlanReviewSetting } from "@/components/plans/plan-review-setting";
import { Time } from "@/components/ui/time";
import { formatDateTime } from "@/lib/time/format";
import { planReviewSetting } from "@/lib/plans/review";
import { teamTwoFactorOverview } from "@/lib/teams/two-factor-requirement";
import type { TeamMember } from "@/lib/teams/members";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";

export const metadata: Metadata = { title: "Team" };

const CREDENTIAL_TONES: Record<NonNullable<TeamMember["credential"]>["kind"], string> = {
  connected: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  rejected: "bg-red-50 text-red-800 ring-red-200",
  unreachable: "bg-amber-50 text-amber-900 ring-amber-200",
  failing: "bg-amber-50 text-amber-900 ring-amber-200",
  unchecked: "bg-slate-100 text-slate-700 ring-slate-200",
};

/** A member's credentials as their last check left them (never "Saved" for ones the EMS refused). */
function CredentialBadge({ credential }: { credential: TeamMember["credential"] }) {
  if (!credential) return <span className="text-slate-500">None</span>;
  const when = credential.checkedAt ? `checked ${formatDateTime(credential.checkedAt, "UTC")} UTC` : "not checked yet";
  return (
    <span className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${CREDENTIAL_TONES[credential.kind]}`} title={when}>
      {credential.label}
    </span>
  );
}

/** The members table's columns: the actions column only for those who may manage the team. */
function memberColumns(manager: boolean): SettingsColumn[] {
  const columns: SettingsColumn[] = [{ label: "Name" }, { label: "Role" }, { label: "Joined" }, { label: "API credentials" }];
  return manager ? [...columns, { label: "Actions", hidden: true }] : columns;
}

/** "Ann (ann@example.com) does not", "Ann and Bo do not", "Ann, Bo and 3 others do not". */
function peopleWithout(members: TeamMember[]): string {
  const names = members.map((member) => (member.isYou ? "You" : member.name));
  const shown = names.length > 4 ? [...names.slice(0, 3), `${names.length - 3} others`] : names;
  const list = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
  return `${list} ${shown.length === 1 && names[0] !== "You" ? "does" : "do"} not use it yet.`;
}

export default async function TeamPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const actor = await requireActor();
  const params = pageSearchParams(await searchParams);
  const team = await getTeamOverview(actor);
  const manager = canManageTeam(team.yourRole);
  const invitations: PendingInvitation[] = manager ? await listPendingInvitations(actor) : [];
  const roles = assignableRoles(team.yourRole);
  const lastOwner = team.yourRole === "OWNER" && team.ownerCount <= 1;
  const twoFactor = team.yourRole === "OWNER" ? await teamTwoFactorOverview(actor) : null;
  const withoutTwoFactor = team.members.filter((member) => !member.twoFactorEnabled);
  const planReview = team.yourRole === "OWNER" ? await planReviewSetting(actor) : null;

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">Team</h1>
        <p className="mt-1 text-sm text-slate-600">
          {team.teamName} · you are {ROLE_LABELS[team.yourRole].toLowerCase()}. {ROLE_DESCRIPTIONS[team.yourRole]}
        </p>
      </div>
      {params.get("joined") ? (
        <Notice tone="success" testId="joined-notice">
          Welcome to {team.teamName}.
        </Notice>
      ) : null}
      {params.get("left") ? (
        <Notice tone="success" testId="left-notice">
          You left your team and now have a team of your own. Open an invitation link to join another one.
        </Notice>
      ) : null}

      <section aria-labelledby="members-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="members-heading" className="text-lg font-semibold">
          Members <span className="text-sm font-normal text-slate-500">({team.members.length})</span>
        </h2>
        {/* A table from 640 px; below, each member is two lines (name and credentials, then email
            and role), the actions under them: nothing wider than a phone. */}
        <SettingsTable fit="stack" className="mt-4" testId="member-list" caption={`Members of ${team.teamName}`} columns={memberColumns(manager)}>
          {team.members.map((member) => {
            const manageable = manager && !member.isYou && canManageMember(team.yourRole, member.role);
            return (
              <tr
                key={member.membershipId}
                data-testid="member-row"
                data-email={member.email}
                data-membership-id={member.membershipId}
                className="align-top max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:gap-x-2 max-sm:gap-y-1 max-sm:py-3"
              >
                <td className="py-3 pr-4 max-sm:order-1 max-sm:min-w-0 max-sm:flex-1 max-sm:p-0">
                  <div className="font-medium break-words text-slate-900">
                    {member.name} {member.isYou ? <span className="text-xs font-normal text-slate-500">(you)</span> : null}
                  </div>
                  <div className="break-all text-slate-500 max-sm:hidden">{member.email}</div>
                </td>
                <td className="py-3 pr-4 max-sm:order-3 max-sm:w-full max-sm:p-0 max-sm:text-xs max-sm:text-slate-600">
                  <span className="break-all sm:hidden">{member.email} · </span>
                  <span data-testid="member-role">{ROLE_LABELS[member.role]}</span>
                </td>
                <td className="whitespace-nowrap py-3 pr-4 text-slate-600 max-sm:hidden">
                  <Time value={member.joinedAt} />
                </td>
                <td className="py-3 pr-4 max-sm:order-2 max-sm:p-0" data-testid="member-credential">
                  <span className="sr-only sm:hidden">API credentials: </span>
                  <CredentialBadge credential={member.credential} />
                </td>
                {manager ? (
                  <td className="py-3 max-sm:order-4 max-sm:w-full max-sm:p-0 max-sm:pt-1 max-sm:empty:hidden">
                    {manageable ? (
                      <div className="flex flex-wrap items-start gap-2">
                        <ChangeRoleForm membershipId={member.membershipId} name={member.name} role={member.role} roles={roles} />
                        <RemoveMemberForm membershipId={member.membershipId} name={member.name} />
                      </div>
                    ) : member.isYou ? null : (
                      <span className="text-xs text-slate-500">Only an owner can change an owner.</span>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </SettingsTable>
      </section>

      {manager ? (
        <section aria-labelledby="invite-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
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
        <section aria-labelledby="team-two-factor-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
          <h2 id="team-two-factor-heading" className="text-lg font-semibold">
            Two-factor sign-in
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600" data-testid="team-two-factor-status">
            {twoFactor.required
              ? "Required: everyone signs in with a code from their phone. Members without it are asked to set it up before anything else."
              : "Not required. When you require it, members without two-factor must set it up before they can use anything else."}{" "}
            {withoutTwoFactor.length === 0 ? "Everyone in the team uses it." : peopleWithout(withoutTwoFactor)}
          </p>
          <div className="mt-4">
            <TwoFactorRequirementForm required={twoFactor.required} ownTwoFactor={actor.twoFactorEnabled} />
          </div>
        </section>
      ) : null}

      {planReview ? (
        <section className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
          <PlanReviewSetting setting={planReview.setting} effective={planReview.effective} />
        </section>
      ) : null}

      <section aria-labelledby="leave-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
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
