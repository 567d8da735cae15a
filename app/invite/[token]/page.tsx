import type { Metadata } from "next";
import Link from "next/link";
import { getActor } from "@/lib/auth/session";
import { getInvitationPreview, getJoinSituation } from "@/lib/teams/invitations";
import { ROLE_LABELS } from "@/lib/access/roles";
import { Notice } from "@/components/ui/notice";
import { buttonClasses } from "@/components/ui/button";
import { CenteredCard } from "@/components/shell/centered-card";
import { AcceptInvitationForm } from "@/components/invite/accept-invitation-form";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };

function Shell({ children }: { children: React.ReactNode }) {
  return <CenteredCard width="md">{children}</CenteredCard>;
}

const UNUSABLE: Record<"used" | "expired" | "revoked", string> = {
  used: "This invitation link has already been used.",
  expired: "This invitation link has expired.",
  revoked: "This invitation link was withdrawn.",
};

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const preview = await getInvitationPreview(token);

  if (!preview) {
    return (
      <Shell>
        <h1 className="text-xl font-semibold">Invitation not found</h1>
        <Notice tone="error" testId="invitation-invalid">
          This invitation link is not valid. Check that you copied all of it, or ask the team for a new one.
        </Notice>
      </Shell>
    );
  }
  if (preview.status !== "valid") {
    return (
      <Shell>
        <h1 className="text-xl font-semibold">Invitation to {preview.teamName}</h1>
        <Notice tone="error" testId={`invitation-${preview.status}`}>
          {UNUSABLE[preview.status]} Ask someone in {preview.teamName} for a new one.
        </Notice>
      </Shell>
    );
  }

  const role = ROLE_LABELS[preview.role].toLowerCase();
  const intro = (
    <>
      <h1 className="text-xl font-semibold">Join {preview.teamName}</h1>
      <p className="text-sm text-slate-600" data-testid="invitation-summary">
        You are invited to join <strong>{preview.teamName}</strong> on EMS Portal as {role === "admin" || role === "owner" ? "an" : "a"} <strong>{role}</strong>.
        {preview.email ? ` The invitation is for ${preview.email}.` : ""} The link works once, until <Time value={preview.expiresAt} />.
      </p>
    </>
  );

  const actor = await getActor();
  if (!actor) {
    const invitePath = `/invite/${encodeURIComponent(token)}`;
    return (
      <Shell>
        {intro}
        <div className="flex flex-col gap-2 sm:flex-row">
          <Link href={`/sign-up?invite=${encodeURIComponent(token)}`} className={buttonClasses("primary", { className: "flex-1" })}>
            Create an account
          </Link>
          <Link href={`/sign-in?callbackUrl=${encodeURIComponent(invitePath)}`} className={buttonClasses("secondary", { className: "flex-1" })}>
            I have an account
          </Link>
        </div>
      </Shell>
    );
  }

  const situation = await getJoinSituation(actor, preview.teamId);
  return (
    <Shell>
      {intro}
      {situation.kind === "same-team" ? (
        <>
          <Notice tone="info" testId="invitation-same-team">
            You are already a member of {preview.teamName}.
          </Notice>
          <Link href="/team" className={buttonClasses("secondary")}>
            Go to your team
          </Link>
        </>
      ) : situation.kind === "other-team" ? (
        <>
          <Notice tone="warning" testId="invitation-other-team">
            You are signed in as {actor.email}, a member of {situation.teamName} ({situation.memberCount} members). A person belongs to one team at a time: leave{" "}
            {situation.teamName} on its Team page first, then open this link again.
          </Notice>
          <Link href="/team" className={buttonClasses("secondary")}>
            Go to your team
          </Link>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            You are signed in as {actor.email}. Your current team, {situation.teamName}, has nobody else in it: joining replaces it, and its saved views go with it. Your
            API credentials stay yours.
          </p>
          <AcceptInvitationForm token={token} teamName={preview.teamName} />
        </>
      )}
    </Shell>
  );
}
