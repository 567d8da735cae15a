import type { Metadata } from "next";
import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { ROLE_LABELS } from "@/lib/access/roles";
import { CREDENTIALS_SETTINGS_PATH } from "@/lib/credentials/paths";
import { hasWorkingCredential } from "@/lib/onboarding/checklist";
import { buttonClasses } from "@/components/ui/button";
import { OpenWebhooksButton } from "@/components/onboarding/open-webhooks";

export const metadata: Metadata = { title: "Welcome" };

/**
 * Where a teammate lands after joining by an invitation (signing up with the link, or accepting it
 * signed in): which team they joined, and the one thing to do next, their own API credentials
 * (nobody's are shared), or, when theirs already work, the webhooks.
 */
export default async function WelcomePage() {
  const actor = await requireActor();
  const connected = await hasWorkingCredential(actor);
  const role = ROLE_LABELS[actor.role].toLowerCase();
  return (
    <div className="mx-auto max-w-xl space-y-5 py-4" data-testid="welcome">
      <div>
        <h1 className="text-2xl font-semibold" data-testid="welcome-heading">
          You joined {actor.teamName}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          You are {role === "admin" || role === "owner" ? "an" : "a"} {role}: you see the team&apos;s shared views, Health mutes and Coverage requirements.
        </p>
      </div>
      {connected ? (
        <section className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 className="text-base font-semibold">Your credentials are connected</h2>
          <p className="mb-3 mt-1 text-sm text-slate-600">You can read your EMS account now.</p>
          <OpenWebhooksButton />
        </section>
      ) : (
        <section className="rounded-xl border border-brand-100 bg-brand-50/60 p-4" data-testid="welcome-next-step">
          <h2 className="text-base font-semibold">Next: save your own API credentials</h2>
          <p className="mb-3 mt-1 text-sm text-slate-700">
            Everyone in {actor.teamName} reads the EMS with their own consumer key and secret: nobody&apos;s are shared, and yours stay yours. Save them (or try the
            sandbox), then open your webhooks.
          </p>
          <Link href={CREDENTIALS_SETTINGS_PATH} className={buttonClasses("primary")} data-testid="welcome-save-credentials">
            Save your API credentials
          </Link>
        </section>
      )}
      <p className="text-sm text-slate-600">
        <Link href="/team" className="font-medium text-brand-700 underline">
          See who is in {actor.teamName}
        </Link>
      </p>
    </div>
  );
}
