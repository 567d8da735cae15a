import type { Metadata } from "next";
import { requireActor } from "@/lib/auth/session";
import { listOpenSessions } from "@/lib/auth/sessions";
import { ChangePasswordForm } from "@/components/auth/change-password-form";
import { SignOutEverywhereButton } from "@/components/auth/sign-out-everywhere-button";

export const metadata: Metadata = { title: "Account" };

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export default async function AccountPage() {
  const actor = await requireActor();
  const sessions = await listOpenSessions(actor);
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">Account</h1>
        <p className="mt-1 text-sm text-slate-600">
          {actor.name} · {actor.email}
        </p>
      </div>

      <section aria-labelledby="password-heading" className="rounded-xl border border-slate-200 bg-white p-6">
        <h2 id="password-heading" className="mb-4 text-lg font-semibold">
          Password
        </h2>
        <ChangePasswordForm email={actor.email} />
      </section>

      <section aria-labelledby="sessions-heading" className="rounded-xl border border-slate-200 bg-white p-6">
        <h2 id="sessions-heading" className="text-lg font-semibold">
          Sessions
        </h2>
        <p className="mt-1 text-sm text-slate-600">Browsers signed in to your account. Times are UTC.</p>
        <ul className="mt-4 divide-y divide-slate-100 text-sm" data-testid="session-list">
          {sessions.map((session) => (
            <li key={session.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
              <span className="max-w-xl truncate text-slate-700">{session.userAgent ?? "Unknown browser"}</span>
              <span className="text-slate-500">
                {session.id === actor.sessionId ? <strong className="mr-2 text-emerald-700">This browser</strong> : null}
                signed in {dateTime.format(session.createdAt)}
              </span>
            </li>
          ))}
        </ul>
        <div className="mt-4">
          <SignOutEverywhereButton />
        </div>
      </section>
    </div>
  );
}
