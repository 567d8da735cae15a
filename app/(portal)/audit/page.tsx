import type { Metadata } from "next";
import Link from "next/link";
import { ChevronLeft, ChevronRight, Download } from "lucide-react";
import { requireActor } from "@/lib/auth/session";
import { isSafeError } from "@/lib/errors";
import { AUDIT_ACTION_GROUPS, actionLabel } from "@/lib/audit-log/describe";
import { auditFilterQuery, hasFilters, parseAuditFilters } from "@/lib/audit-log/filters";
import { formatCount } from "@/lib/listing/format";
import { AUDIT_PAGE_SIZE, listAuditLog, type AuditPerson } from "@/lib/audit-log/entries";
import { canManageTeam } from "@/lib/access/roles";
import { Notice } from "@/components/ui/notice";
import { buttonClasses } from "@/components/ui/button";
import { AuditFilters, type PersonOption } from "@/components/audit/audit-filters";
import { Time } from "@/components/ui/time";
import { plural, pluralWord } from "@/lib/text/plural";

export const metadata: Metadata = { title: "Audit log" };

function forbiddenAsNull(error: unknown): null {
  if (isSafeError(error) && error.code === "forbidden") return null;
  throw error;
}

const personOption = (p: AuditPerson): PersonOption => ({ id: p.id, label: `${p.name} (${p.email})` });

const ACTION_OPTIONS = AUDIT_ACTION_GROUPS.map((group) => ({
  key: group.key,
  label: group.label,
  actions: group.actions.map((action) => ({ value: action, label: actionLabel(action) })),
}));

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireActor();
  const parsed = parseAuditFilters(await searchParams);
  // The data function checks the role the database has now; the session's role only picks the message early.
  const log = canManageTeam(actor.role) ? await listAuditLog(actor, parsed).catch(forbiddenAsNull) : null;
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

  const { filters } = log;
  const filtered = hasFilters(filters);
  const first = log.totalCount === 0 ? 0 : (log.page - 1) * AUDIT_PAGE_SIZE + 1;
  const last = Math.min(log.page * AUDIT_PAGE_SIZE, log.totalCount);
  const exportHref = `/api/audit/export${auditFilterQuery(filters, { page: 1 })}`;

  return (
    <div className="min-w-0 space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold">Audit log</h1>
          <p className="mt-1 text-sm text-slate-600">
            Who did what in <span className="[overflow-wrap:anywhere]">{actor.teamName}</span>, newest first. Times are in UTC.
          </p>
        </div>
        {log.totalCount > 0 ? (
          // A plain link: the file downloads with or without JavaScript.
          <a href={exportHref} download className={buttonClasses("secondary")} data-testid="audit-export">
            <Download aria-hidden className="size-4" />
            Download CSV
          </a>
        ) : null}
      </div>

      <AuditFilters
        members={log.people.filter((p) => p.current).map(personOption)}
        formerMembers={log.people.filter((p) => !p.current).map(personOption)}
        actionGroups={ACTION_OPTIONS}
        values={{ person: filters.person ?? "", action: filters.action ?? "", from: filters.from ?? "", to: filters.to ?? "" }}
        filtered={filtered}
      />

      {log.notices.length > 0 ? (
        <Notice tone="warning" testId="audit-notices" title="Part of the address was ignored">
          <ul className="list-disc space-y-1 pl-5">
            {log.notices.map((notice) => (
              <li key={notice}>{notice}</li>
            ))}
          </ul>
        </Notice>
      ) : null}

      {log.records.length === 0 ? (
        <Notice tone="info" testId="audit-empty">
          {filtered ? (
            <>
              No entries match these filters.{" "}
              <Link href="/audit" prefetch={false} className="font-medium underline">
                Clear filters
              </Link>
            </>
          ) : (
            "Nothing recorded yet."
          )}
        </Notice>
      ) : (
        <section aria-labelledby="audit-entries-heading" className="space-y-3">
          <h2 id="audit-entries-heading" className="text-sm font-normal text-slate-600" data-testid="audit-count">
            {plural(log.totalCount, "entry", "entries")}
            {filtered ? ` ${pluralWord(log.totalCount, "matches", "match")} these filters` : ""}
            <span className="sr-only">
              , showing {first} to {last}
            </span>
          </h2>
          <ol className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white" data-testid="audit-table">
            {log.records.map((record) => (
              <li
                key={record.id}
                className="flex flex-col gap-1 px-4 py-3 text-sm sm:flex-row sm:items-baseline sm:justify-between sm:gap-4"
                data-testid="audit-row"
                data-action={record.action}
              >
                <p className="min-w-0 [overflow-wrap:anywhere]" data-testid="audit-sentence">
                  {record.sentence.map((part, i) =>
                    part.person ? (
                      <span key={i} className="font-medium text-slate-900">
                        {part.text}
                      </span>
                    ) : (
                      <span key={i}>{part.text}</span>
                    ),
                  )}
                </p>
                <p className="shrink-0 text-xs text-slate-500 sm:text-right">
                  <Time value={record.createdAt} />
                  <span className="sr-only">, </span>
                  <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-slate-600">{record.actionLabel}</span>
                  {record.ip ? (
                    <span className="ml-2 [overflow-wrap:anywhere]" title="Address the request came from">
                      {record.ip}
                    </span>
                  ) : null}
                </p>
              </li>
            ))}
          </ol>
          <nav aria-label="Audit log pages" className="flex flex-wrap items-center justify-between gap-3 text-sm" data-testid="audit-pagination">
            <span data-testid="audit-range">
              {formatCount(first)}–{formatCount(last)} of {formatCount(log.totalCount)}
            </span>
            <span className="flex items-center gap-2">
              {log.page > 1 ? (
                <Link href={`/audit${auditFilterQuery(filters, { page: log.page - 1 })}`} prefetch={false} className={buttonClasses("secondary")} rel="prev">
                  <ChevronLeft aria-hidden className="size-4" />
                  Previous
                </Link>
              ) : null}
              <span className="text-slate-500">
                Page {log.page} of {log.pageCount}
              </span>
              {log.page < log.pageCount ? (
                <Link href={`/audit${auditFilterQuery(filters, { page: log.page + 1 })}`} prefetch={false} className={buttonClasses("secondary")} rel="next">
                  Next
                  <ChevronRight aria-hidden className="size-4" />
                </Link>
              ) : null}
            </span>
          </nav>
        </section>
      )}
    </div>
  );
}
