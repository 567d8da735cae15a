import type { Metadata } from "next";
import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { listOpenSessions } from "@/lib/auth/sessions";
import { twoFactorOverview } from "@/lib/auth/two-factor-overview";
import { ChangePasswordForm } from "@/components/auth/change-password-form";
import { SignOutEverywhereButton } from "@/components/auth/sign-out-everywhere-button";
import { TwoFactorSection } from "@/components/two-factor/two-factor-section";

export const metadata: Metadata = { title: "Security · Settings" };

export default async function AccountPage() {
  const actor = await requireActor();
  const [sessions, twoFactor] = await Promise.all([listOpenSessions(actor), twoFactorOverview(actor)]);
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">Security</h1>
        <p className="mt-1 text-sm text-slate-600">
          How you sign in as {actor.name} ({actor.email}): your password, two-factor sign-in and the browsers signed in.
        </p>
      </div>

      <section aria-labelledby="password-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="password-heading" className="mb-4 text-lg font-semibold">
          Password
        </h2>
        <ChangePasswordForm email={actor.email} />
      </section>

      <TwoFactorSection actor={actor} overview={twoFactor} />

      <section aria-labelledby="sessions-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="sessions-heading" className="text-lg font-semibold">
          Sessions
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {sessions.length === 1 ? "One browser is" : `${sessions.length} browsers are`} signed in to your account.{" "}
          <Link href="/account/sessions" className="font-medium text-brand-700 hover:underline">
            See and end sessions
          </Link>
        </p>
        <div className="mt-4">
          <SignOutEverywhereButton />
        </div>
      </section>
    </div>
  );
}
