import type { Enrolment } from "@/lib/auth/two-factor";
import { groupSecret } from "@/lib/auth/totp";
import { startTwoFactorEnrolmentAction } from "@/lib/actions/two-factor/start-enrolment";
import { cancelTwoFactorEnrolmentAction } from "@/lib/actions/two-factor/cancel-enrolment";
import { ActionForm } from "@/components/forms/action-form";
import { Button } from "@/components/ui/button";
import { ConfirmEnrolmentForm } from "./confirm-enrolment-form";

/** "Set up two-factor": starts an enrolment (a new secret); the page then shows <EnrolmentSteps>. */
export function StartEnrolmentButton({ label = "Set up two-factor" }: { label?: string }) {
  return (
    <ActionForm action={startTwoFactorEnrolmentAction} testId="start-two-factor">
      <Button type="submit">{label}</Button>
    </ActionForm>
  );
}

/**
 * The enrolment in three steps: scan the QR code (rendered here, on the server, as an SVG path: no
 * script, no image request) or type the secret, then confirm with the first code. The secret is
 * shown as text for apps without a camera (and for the tests, which compute codes from it).
 */
export function EnrolmentSteps({ enrolment, doneHref }: { enrolment: Enrolment; doneHref?: string }) {
  const { qr } = enrolment;
  return (
    <div className="space-y-6" data-testid="two-factor-enrolment">
      <ol className="space-y-6">
        <li className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <svg
            role="img"
            aria-label="QR code to scan with your authenticator app"
            viewBox={`0 0 ${qr.size} ${qr.size}`}
            className="size-44 shrink-0 rounded-lg border border-slate-200 bg-white"
            shapeRendering="crispEdges"
            data-testid="two-factor-qr"
          >
            <rect width={qr.size} height={qr.size} fill="#fff" />
            <path d={qr.path} fill="#0f172a" />
          </svg>
          <div className="min-w-0 space-y-2 text-sm">
            <p>
              <span className="font-semibold">1. Scan the QR code</span> with an authenticator app (1Password, Google Authenticator, Microsoft Authenticator, Authy…).
            </p>
            <p className="text-slate-600">Can&apos;t scan it? Enter this key in the app instead (time-based, 6 digits):</p>
            <code className="block break-words rounded-md bg-slate-100 px-3 py-2 font-mono text-sm tracking-wide text-slate-900" data-testid="two-factor-secret">
              {groupSecret(enrolment.secret)}
            </code>
          </div>
        </li>
        <li className="space-y-2 text-sm">
          <p>
            <span className="font-semibold">2. Enter the 6-digit code</span> the app shows for EMS Portal.
          </p>
          <ConfirmEnrolmentForm doneHref={doneHref} />
        </li>
      </ol>
      {doneHref ? null : (
        <ActionForm action={cancelTwoFactorEnrolmentAction} className="text-sm">
          <button type="submit" className="text-slate-600 underline underline-offset-2 hover:text-slate-900">
            Cancel set-up
          </button>
        </ActionForm>
      )}
    </div>
  );
}
