import Link from "next/link";
import type { ListingFailure, RateBudget } from "@/lib/ems-access/shared-read";
import { formatSeconds } from "@/lib/duration";
import { formatCount } from "@/lib/listing/format";
import { CREDENTIALS_SETTINGS_PATH } from "@/lib/credentials/paths";

/** The page's answer when there is no table to show: each state says what happened and what to do. */
export function StateMessage({ failure, retryHref }: { failure: ListingFailure; retryHref: string }) {
  switch (failure.kind) {
    case "no-credentials":
      return (
        <Panel testId="state-no-credentials" title="Add your EMS API credentials first">
          <p>
            The portal lists your data with your own API credentials, and you have not saved any yet.{" "}
            <Link href={CREDENTIALS_SETTINGS_PATH} className="font-medium text-brand-700 underline">
              Add them in Settings
            </Link>
            .
          </p>
        </Panel>
      );
    case "rejected":
      return (
        <Panel testId="state-rejected" title="Your API credentials were rejected" tone="error">
          <p>{failure.message}</p>
          <p className="mt-2">
            <Link href={CREDENTIALS_SETTINGS_PATH} className="font-medium text-brand-700 underline">
              Open Settings
            </Link>{" "}
            to correct the consumer key or secret.
          </p>
        </Panel>
      );
    case "rate-limited":
      return (
        <Panel testId="state-rate-limited" title="Rate limit reached" tone="warning">
          <p>
            The EMS API allows a limited number of calls per credential. Try again in{" "}
            <strong data-testid="retry-after">{formatSeconds(failure.retryAfterSeconds)}</strong>.
          </p>
          {failure.budget ? <BudgetLine budget={failure.budget} /> : null}
          <RetryLink href={retryHref} />
        </Panel>
      );
    case "busy":
      return (
        <Panel testId="state-busy" title="Busy" tone="warning">
          <p>{failure.message}</p>
          <RetryLink href={retryHref} />
        </Panel>
      );
    case "unavailable":
      return (
        <Panel testId="state-unavailable" title={failure.unreachable?.title ?? "The EMS did not answer"} tone="error">
          <p data-testid="unreachable-message">{failure.message}</p>
          <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
            <Link href={CREDENTIALS_SETTINGS_PATH} className="font-medium text-brand-700 underline" data-testid="fix-credentials-link">
              {failure.unreachable?.fixInSettings ? "Fix the base URL in Settings" : "Check your credentials in Settings"}
            </Link>
            <Link href={retryHref} className="font-medium text-brand-700 underline">
              Try again
            </Link>
          </p>
        </Panel>
      );
    case "bad-request":
      return (
        <Panel testId="state-bad-request" title="The EMS API refused these options" tone="error">
          <p>{failure.message}</p>
        </Panel>
      );
    case "invalid-response":
    case "unknown":
      return (
        <Panel testId="state-error" title="The list could not be loaded" tone="error">
          <p>{failure.message}</p>
          <RetryLink href={retryHref} />
        </Panel>
      );
  }
}

export function BudgetLine({ budget }: { budget: RateBudget }) {
  const seconds = budget.resetInSeconds;
  return (
    <p className="text-sm text-slate-700" data-testid="rate-budget">
      API budget: {budget.limit > 0 ? `${formatCount(budget.remaining)} of ${formatCount(budget.limit)} credits left` : "none left"}
      {seconds > 0 ? `, the window resets in ${formatSeconds(seconds)}` : ""}.
    </p>
  );
}

function Panel({ title, children, tone = "info", testId }: { title: string; children: React.ReactNode; tone?: "info" | "warning" | "error"; testId: string }) {
  const colours = {
    info: "border-blue-200 bg-blue-50",
    warning: "border-amber-300 bg-amber-50",
    error: "border-red-300 bg-red-50",
  }[tone];
  return (
    <section className={`rounded-md border p-4 ${colours}`} data-testid={testId} aria-labelledby={`${testId}-title`}>
      <h2 id={`${testId}-title`} className="mb-1 text-base font-semibold text-slate-900">
        {title}
      </h2>
      <div className="text-sm text-slate-800">{children}</div>
    </section>
  );
}

function RetryLink({ href }: { href: string }) {
  return (
    <p className="mt-2">
      <Link href={href} className="font-medium text-brand-700 underline">
        Try again
      </Link>
    </p>
  );
}
