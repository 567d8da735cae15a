import type { Metadata } from "next";
import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { sessionPolicy } from "@/lib/auth/session-policy";
import { listOpenSessions, type OpenSession } from "@/lib/auth/sessions";
import { durationWords, exactUtc, relativeTo } from "@/lib/auth/session-times";
import { describeUserAgent } from "@/lib/auth/user-agent";
import { EndSessionForm } from "@/components/sessions/end-session-form";
import { SignOutOtherSessionsForm } from "@/components/sessions/sign-out-other-sessions-form";

export const metadata: Metadata = { title: "Sessions" };

export default async function SessionsPage() {
  const actor = await requireActor();
  const policy = sessionPolicy();
  const now = new Date();
  const sessions = await listOpenSessions(actor, policy, now);
  const others = sessions.filter((session) => !session.current).length;
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm">
          <Link href="/account" className="text-brand-700 hover:underline">
            Security
          </Link>
          <span aria-hidden className="text-slate-400">
            {" "}
            /{" "}
          </span>
        </p>
        <h1 className="text-2xl font-semibold">Sessions</h1>
        <p className="mt-1 text-sm text-slate-600">
          Browsers signed in to your account. A session ends after {durationWords(policy.idleSeconds)} without use, and {durationWords(policy.maxAgeSeconds)} after
          signing in. Times are in UTC.
        </p>
      </div>

      <ul className="space-y-3" data-testid="session-list" aria-label="Open sessions">
        {sessions.map((session) => (
          <SessionItem key={session.id} session={session} now={now} />
        ))}
      </ul>

      <section aria-labelledby="others-heading" className="rounded-xl border border-slate-200 bg-white p-5">
        <h2 id="others-heading" className="text-base font-semibold">
          Other sessions
        </h2>
        <p className="mt-1 mb-3 text-sm text-slate-600">
          {others === 0
            ? "This is the only browser signed in to your account."
            : `${others === 1 ? "One other browser is" : `${others} other browsers are`} signed in. If you do not recognise one, end it and change your password.`}
        </p>
        <SignOutOtherSessionsForm others={others} />
      </section>
    </div>
  );
}

function SessionItem({ session, now }: { session: OpenSession; now: Date }) {
  const { summary, kind } = describeUserAgent(session.userAgent);
  return (
    <li
      className={`rounded-xl border bg-white p-4 sm:p-5 ${session.current ? "border-emerald-300" : "border-slate-200"}`}
      data-testid="session"
      data-current={session.current ? "true" : undefined}
    >
      <div className="flex flex-wrap items-start gap-x-4 gap-y-3">
        <DeviceIcon kind={kind} />
        <div className="min-w-0 flex-1 basis-56">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium break-words text-slate-900" data-testid="session-browser">
              {summary}
            </span>
            {session.current ? (
              <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 ring-1 ring-emerald-200">This session</span>
            ) : null}
          </p>
          <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-500">Address</dt>
            <dd className="font-mono break-all text-slate-700">{session.ip ?? "unknown"}</dd>
            <dt className="text-slate-500">Signed in</dt>
            <dd className="text-slate-700">
              <Moment at={session.createdAt} now={now} />
            </dd>
            <dt className="text-slate-500">Last active</dt>
            <dd className="text-slate-700">{session.current ? "Now" : <Moment at={session.lastSeenAt} now={now} />}</dd>
          </dl>
          {session.userAgent ? (
            <details className="mt-2 text-xs text-slate-500">
              <summary className="cursor-pointer select-none hover:text-slate-700">Browser details</summary>
              <p className="mt-1 font-mono break-all">{session.userAgent}</p>
            </details>
          ) : null}
        </div>
        {session.current ? null : (
          <div className="w-full sm:w-auto">
            <EndSessionForm sessionId={session.id} label={summary} />
          </div>
        )}
      </div>
    </li>
  );
}

function Moment({ at, now }: { at: Date; now: Date }) {
  return (
    <>
      {relativeTo(at, now)}{" "}
      <time dateTime={at.toISOString()} className="text-slate-500">
        · {exactUtc(at)}
      </time>
    </>
  );
}

function DeviceIcon({ kind }: { kind: "mobile" | "tablet" | "desktop" }) {
  return (
    <span aria-hidden className="hidden size-10 shrink-0 place-items-center rounded-lg bg-slate-100 text-slate-500 sm:grid">
      {kind === "desktop" ? (
        <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8">
          <rect x="3" y="4" width="18" height="12" rx="1.5" />
          <path d="M8 20h8M12 16v4" />
        </svg>
      ) : (
        <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8">
          <rect x={kind === "tablet" ? 4 : 7} y="3" width={kind === "tablet" ? 16 : 10} height="18" rx="2" />
          <path d="M11 18h2" />
        </svg>
      )}
    </span>
  );
}
