import type { Metadata } from "next";
import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { isSafeError } from "@/lib/errors";
import { listAuditLog } from "@/lib/teams/audit-log";
import { canManageTeam } from "@/lib/teams/roles";
import { Notice } from "@/components/ui/notice";
import { buttonClasses } from "@/components/ui/button";
import { ScrollX } from "@/components/ui/scroll-x";

export const metadata: Metadata = { title: "Audit log" };

const utc = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

const ACTION_LABELS: Record<string, string> = {
  "auth.sign_up": "Signed up",
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Sign-in failed",
  "auth.sign_out_everywhere": "Signed out of all sessions",
  "auth.session_ended": "Ended a session",
  "auth.other_sessions_ended": "Signed out of other sessions",
  "auth.password_changed": "Changed password",
  "auth.two_factor_enabled": "Turned on two-factor sign-in",
  "auth.two_factor_disabled": "Turned off two-factor sign-in",
  "auth.recovery_codes_regenerated": "Made new recovery codes",
  "auth.recovery_code_used": "Signed in with a recovery code",
  "auth.reauthenticated": "Confirmed their identity",
  "auth.reauthentication_failed": "Failed to confirm their identity",
  "credential.saved": "Saved API credentials",
  "credential.tested": "Tested API credentials",
  "credential.deleted": "Deleted API credentials",
  "invitation.created": "Created an invitation",
  "invitation.revoked": "Withdrew an invitation",
  "team.joined": "Joined the team",
  "team.role_changed": "Changed a role",
  "team.member_removed": "Removed a member",
  "team.member_left": "Left the team",
  "team.two_factor_requirement_changed": "Changed the two-factor requirement",
  "view.shared": "Shared a view",
  "export.header_values_included": "Exported with header values",
  "health.muted": "Muted a health finding",
  "health.unmuted": "Unmuted a health finding",
  "coverage.requirements_changed": "Changed the required triggers",
  "alerts.slack_url_set": "Set the Slack URL for alerts",
  "alerts.slack_url_cleared": "Removed the Slack URL for alerts",
};

function forbiddenAsNull(error: unknown): null {
  if (isSafeError(error) && error.code === "forbidden") return null;
  throw error;
}

function pageFrom(value: string | string[] | undefined): number {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireActor();
  // The data function checks the role the database has now; the session's role only picks the message early.
  const log = canManageTeam(actor.role) ? await listAuditLog(actor, { page: pageFrom((await searchParams).page) }).catch(forbiddenAsNull) : null;
  if (!log) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">Audit log</h1>
        <Notice tone="warning" testId="audit-forbidden">
          Only owners and admins can read the audit log.
        </Notice>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Audit log</h1>
        <p className="mt-1 text-sm text-slate-600">
          Who did what in {actor.teamName}, newest first. Times are UTC. {log.totalCount} entr{log.totalCount === 1 ? "y" : "ies"}.
        </p>
      </div>
      {log.records.length === 0 ? (
        <Notice tone="info" testId="audit-empty">
          Nothing recorded yet.
        </Notice>
      ) : (
        <ScrollX className="rounded-xl border border-slate-200 bg-white">
          <table className="w-full min-w-[48rem] text-left text-sm" data-testid="audit-table">
            <caption className="sr-only">
              Audit log, page {log.page} of {log.pageCount}
            </caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">When</th>
                <th scope="col" className="px-4 py-2 font-medium">Who</th>
                <th scope="col" className="px-4 py-2 font-medium">What</th>
                <th scope="col" className="px-4 py-2 font-medium">Details</th>
                <th scope="col" className="px-4 py-2 font-medium">From</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {log.records.map((record) => (
                <tr key={record.id} className="align-top" data-testid="audit-row" data-action={record.action}>
                  <td className="whitespace-nowrap px-4 py-2 text-slate-600">
                    <time dateTime={record.createdAt.toISOString()}>{utc.format(record.createdAt)}</time>
                  </td>
                  <td className="px-4 py-2">{record.actorEmail ?? <span className="text-slate-500">unknown</span>}</td>
                  <td className="px-4 py-2">
                    <span className="font-medium">{ACTION_LABELS[record.action] ?? record.action}</span>
                    {record.target ? <div className="text-xs text-slate-500">{record.target}</div> : null}
                  </td>
                  <td className="px-4 py-2 text-xs text-slate-600">
                    {record.details.length > 0 ? (
                      <dl className="grid grid-cols-[auto_1fr] gap-x-2">
                        {record.details.map((detail) => (
                          <div key={detail.label} className="contents">
                            <dt className="text-slate-500">{detail.label}</dt>
                            <dd className="break-all">{detail.value}</dd>
                          </div>
                        ))}
                      </dl>
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap px-4 py-2 text-slate-600">{record.ip ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
      {log.pageCount > 1 ? (
        <nav aria-label="Audit log pages" className="flex items-center gap-3 text-sm">
          {log.page > 1 ? (
            <Link href={`/audit?page=${log.page - 1}`} className={buttonClasses("secondary")} rel="prev">
              Newer
            </Link>
          ) : null}
          <span aria-current="page">
            Page {log.page} of {log.pageCount}
          </span>
          {log.page < log.pageCount ? (
            <Link href={`/audit?page=${log.page + 1}`} className={buttonClasses("secondary")} rel="next">
              Older
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
