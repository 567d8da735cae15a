import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { hasRecentPassword } from "@/lib/access/recent-auth";
import { clientIp } from "@/lib/auth/request-meta";
import { requireActor } from "@/lib/auth/session";
import { pendingEnrolment, startEnrolment } from "@/lib/auth/two-factor";
import { ReauthProvider } from "@/components/auth/reauth-provider";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { EnrolmentSteps, StartEnrolmentButton } from "@/components/two-factor/enrolment";

export const metadata: Metadata = { title: "Set up two-factor sign-in" };

/**
 * Where a member of a team that requires two-factor lands from every page and action until they
 * have turned it on (requireActor redirects here). Nothing else of the portal is reachable meanwhile.
 */
export default async function TwoFactorSetupPage() {
  const actor = await requireActor({ allowTwoFactorSetup: true });
  if (actor.twoFactorEnabled) redirect("/");
  // The page is the set-up: a secret waiting for its first code is made on the first visit (the
  // only place a GET writes, and only for the signed-in person's own pending row), and only for a
  // session that proved its password recently. A stale one confirms the password first.
  const proven = hasRecentPassword(actor);
  let enrolment = proven ? await pendingEnrolment(actor) : null;
  if (proven && !enrolment) {
    await startEnrolment(actor, { ip: await clientIp() });
    enrolment = await pendingEnrolment(actor);
  }
  return (
    <ReauthProvider twoFactor={false}>
      <div className="space-y-6">
        <div>
          <h1 className="text-xl font-semibold">Set up two-factor sign-in</h1>
          <p className="mt-1 text-sm text-slate-600">
            {actor.teamRequiresTwoFactor ? (
              <>
                <strong className="font-semibold text-slate-800">{actor.teamName}</strong> requires two-factor sign-in. Set it up to continue to EMS Portal.
              </>
            ) : (
              "Protect your account with a code from your phone."
            )}
          </p>
        </div>
        {enrolment ? (
          <EnrolmentSteps enrolment={enrolment} doneHref="/" />
        ) : (
          <div className="space-y-3" data-testid="two-factor-password-first">
            <p className="text-sm text-slate-700">You signed in a while ago. Confirm your password first; then the set-up begins.</p>
            <StartEnrolmentButton label="Confirm your password to begin" />
          </div>
        )}
        <p className="border-t border-slate-100 pt-4 text-sm text-slate-600">
          Signed in as {actor.email}. <SignOutButton className="font-medium text-brand-700 underline-offset-2 hover:underline" />
        </p>
      </div>
    </ReauthProvider>
  );
}
