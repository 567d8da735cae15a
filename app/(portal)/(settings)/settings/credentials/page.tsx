import type { Metadata } from "next";
import { headers } from "next/headers";
import { requireActor } from "@/lib/auth/session";
import { credentialStatus, type CredentialStatus, type CredentialStatusKind } from "@/lib/credentials/status";
import { getCredentialSummary } from "@/lib/credentials/store";
import { sandboxBaseUrl } from "@/lib/credentials/sandbox";
import { sandboxSettings } from "@/lib/env";
import { LatestMessageScope } from "@/components/forms/latest-message";
import { Notice } from "@/components/ui/notice";
import { Collapsible } from "@/components/settings/collapsible";
import { CredentialForm } from "@/components/settings/credential-form";
import { DeleteCredentialForm } from "@/components/settings/delete-credential-form";
import { SandboxQuickStart } from "@/components/settings/sandbox-quick-start";
import { TestConnectionForm } from "@/components/settings/test-connection-form";
import { SettingsHeading } from "@/components/settings/settings-heading";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "API credentials · Settings" };

function When({ date, never }: { date: Date | null; never: string }) {
  return date ? <Time value={date} /> : <span className="text-slate-500">{never}</span>;
}

const STATUS_BADGES: Record<CredentialStatusKind, string> = {
  connected: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  rejected: "bg-red-50 text-red-800 ring-red-200",
  unreachable: "bg-amber-50 text-amber-900 ring-amber-200",
  failing: "bg-amber-50 text-amber-900 ring-amber-200",
  unchecked: "bg-slate-100 text-slate-700 ring-slate-200",
};

/** One badge for the credentials' last check, when it was, and what went wrong if it failed. */
function CredentialStatusLine({ status }: { status: CredentialStatus }) {
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_BADGES[status.kind]}`} data-testid="credential-status-badge">
        {status.label}
      </span>
      {status.checkedAt ? (
        <span className="text-slate-600">
          checked <When date={status.checkedAt} never="" />
        </span>
      ) : (
        <span className="text-slate-600">Test the connection to check them.</span>
      )}
      {status.message ? <span className="w-full text-red-700">{status.message}</span> : null}
    </span>
  );
}

export default async function CredentialsSettingsPage() {
  const actor = await requireActor();
  const summary = await getCredentialSummary(actor);
  const sandboxUrl = sandboxSettings().enabled ? sandboxBaseUrl(await headers()) : null;

  return (
    <div>
      <SettingsHeading title="API credentials">
        Your own EMS API credentials. Each member of {actor.teamName} uses their own; nobody else, not even an owner, can read yours.
      </SettingsHeading>
      <section aria-labelledby="credentials-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="credentials-heading" className="text-lg font-semibold">
          Connection
        </h2>
        {/* One tree for both states (none saved / saved): the stateful forms keep their place, so the
            outcome of a save or a sandbox set-up stays on screen when the page re-renders. */}
        <LatestMessageScope>
          <div className="mt-4 space-y-6">
            {summary ? (
              <dl className="grid max-w-2xl grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]" data-testid="credential-summary">
                <dt className="font-medium text-slate-500">Base URL</dt>
                <dd className="break-all" data-testid="credential-base-url">
                  {summary.baseUrl}
                </dd>
                <dt className="font-medium text-slate-500">Consumer key</dt>
                <dd>
                  <span aria-label={`ending in ${summary.keyLast4}`} data-testid="credential-key-last4">
                    <span aria-hidden>••••</span>
                    {summary.keyLast4}
                  </span>
                </dd>
                <dt className="font-medium text-slate-500">Consumer secret</dt>
                <dd className="text-slate-600">Saved, encrypted (never shown)</dd>
                <dt className="font-medium text-slate-500">Saved</dt>
                <dd>
                  <When date={summary.savedAt} never="" />
                </dd>
                <dt className="font-medium text-slate-500">Status</dt>
                <dd data-testid="credential-status">
                  <CredentialStatusLine status={credentialStatus(summary)} />
                </dd>
              </dl>
            ) : (
              <Notice tone="info" testId="no-credentials">
                You have not saved API credentials yet. The webhook group and event pages need them.
              </Notice>
            )}
            {summary && !summary.readable ? (
              <Notice tone="warning" testId="credential-unreadable">
                These credentials were encrypted with a key this server no longer has, so they cannot be used. Enter your consumer key and secret again below.
              </Notice>
            ) : null}
            {summary ? <TestConnectionForm /> : null}
            {sandboxUrl ? (
              <Collapsible title={summary ? "Switch to the built-in sandbox" : "Try the built-in sandbox"} defaultOpen={!summary} testId="sandbox-section">
                <SandboxQuickStart sandboxBaseUrl={sandboxUrl} />
              </Collapsible>
            ) : null}
            <Collapsible title={summary ? "Replace credentials" : "Enter your own credentials"} defaultOpen={!summary} testId="credential-form-section">
              <CredentialForm defaultBaseUrl={summary?.baseUrl ?? ""} sandboxBaseUrl={sandboxUrl} replacing={summary !== null} />
            </Collapsible>
            {summary ? <DeleteCredentialForm credentialId={summary.id} /> : null}
          </div>
        </LatestMessageScope>
      </section>
    </div>
  );
}
