import type { Actor } from "@/lib/access/actor";
import type { TwoFactorOverview } from "@/lib/auth/two-factor-overview";
import { Notice } from "@/components/ui/notice";
import { DisableTwoFactorForm, RegenerateRecoveryCodesForm } from "./code-action-form";
import { EnrolmentSteps, StartEnrolmentButton } from "./enrolment";
import { Time } from "@/components/ui/time";

/**
 * The account page's two-factor section: off (set it up), being set up, or on (recovery codes, turn
 * off). The page loads what it shows (lib/auth/two-factor-overview.ts).
 */
export function TwoFactorSection({ actor, overview: { status, enrolment } }: { actor: Pick<Actor, "teamRequiresTwoFactor">; overview: TwoFactorOverview }) {
  return (
    <section aria-labelledby="two-factor-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6" data-testid="two-factor-section">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="two-factor-heading" className="text-lg font-semibold">
          Two-factor sign-in
        </h2>
        {status.enabled ? (
          <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 ring-1 ring-emerald-200" data-testid="two-factor-on">
            On
          </span>
        ) : (
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-200">Off</span>
        )}
      </div>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        A code from an app on your phone, asked after your password when you sign in and before sensitive changes. Someone who learns your password still cannot sign in.
      </p>

      <div className="mt-5">
        {status.enabled ? (
          <div className="space-y-6">
            <p className="text-sm text-slate-700">
              On since {status.enabledAt ? <Time value={status.enabledAt} dateOnly /> : "—"}.{" "}
              <span data-testid="recovery-codes-left">{status.recoveryCodesLeft} of 10 recovery codes left.</span>
            </p>
            {status.recoveryCodesLeft <= 3 ? <Notice tone="warning">Few recovery codes left: make new ones, so a lost phone does not lock you out.</Notice> : null}
            <div className="space-y-2">
              <h3 className="text-sm font-semibold">Recovery codes</h3>
              <RegenerateRecoveryCodesForm />
            </div>
            <div className="space-y-2 border-t border-slate-100 pt-5">
              <h3 className="text-sm font-semibold">Turn off</h3>
              {actor.teamRequiresTwoFactor ? <p className="text-sm text-slate-600">Your team requires two-factor sign-in, so it stays on.</p> : <DisableTwoFactorForm />}
            </div>
          </div>
        ) : enrolment ? (
          <EnrolmentSteps enrolment={enrolment} />
        ) : status.pending ? (
          <div className="space-y-3">
            <p className="text-sm text-slate-700">A set-up was started earlier. Confirm your password to continue it with a new QR code.</p>
            <StartEnrolmentButton label="Continue set-up" />
          </div>
        ) : (
          <StartEnrolmentButton />
        )}
      </div>
    </section>
  );
}
