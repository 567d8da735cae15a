import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { StateMessage } from "@/components/listing/state-message";
import { BulkEditForm, type BulkDefaults } from "@/components/plans/bulk-edit-form";
import { buttonClasses } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { requireActor } from "@/lib/auth/session";
import { loadHealthReport } from "@/lib/health/report";
import { LARGE_PLAN_OPERATIONS } from "@/lib/plans/cost";
import { ALL_FINDINGS, fixAll, fixFor } from "@/lib/plans/fixes";
import { ruleById } from "@/lib/health/rules";
import { accountGroups } from "@/lib/plans/forms";
import { loadSelection, parseNewPlanParams, type Selection } from "@/lib/plans/selection";
import { fromAnotherSite } from "@/lib/security/fetch-metadata";
import { plural } from "@/lib/text/plural";

export const metadata: Metadata = { title: "New plan" };

const PREVIEW = 12;

/**
 * A bulk change (issue 27 §2) over records chosen like a list chooses them: `resource` and the list's
 * own URL options (filters, search, `ids=` from a coverage cell or a finding), or `fix=<check>&key=`
 * for Health's "Fix…" (the records and the change come from the finding, found in the current report).
 */
export default async function NewPlanPage(props: PageProps<"/plans/new">) {
  const actor = await requireActor();
  const request = parseNewPlanParams(await props.searchParams);
  const here = `/plans/new?${request.options.toString()}`;
  // Reading a selection spends up to 250 credits of the team's budget: not for a link another site sent, until the person asks here.
  if (fromAnotherSite(await headers())) return <FollowedFromElsewhere href={here} />;
  let resource = request.resource;
  let ids: number[] | null = null;
  let defaults: BulkDefaults = {};
  let fixMessage: string | null = null;
  let fixed: Selection | null = null;

  if (request.fix) {
    const { ruleId, key } = request.fix;
    const report = await loadHealthReport(actor);
    if (report.kind !== "ok") return <StateMessage failure={report} retryHref="/health" />;
    const all = key === ALL_FINDINGS ? fixAll(report.active, ruleId, actor.email) : null;
    const finding = all ? null : report.active.find((candidate) => candidate.ruleId === ruleId && candidate.key === key);
    const fix = all ?? (finding ? fixFor(finding, actor.email) : null);
    if (!fix) {
      return (
        <Notice tone="warning" title="Nothing to fix" testId="fix-gone">
          That finding is not in the current health check (fixed already, muted, or never there), or its check has no mechanical fix.{" "}
          <Link href="/health" className="underline">
            Back to Health
          </Link>
        </Notice>
      );
    }
    resource = fix.resource;
    ids = fix.ids;
    fixMessage = all ? `every finding of “${ruleById(ruleId)?.title ?? ruleId}” (${plural(all.findings, "finding")}).` : finding!.message;
    // "Fix all": up to thousands of records, named by the findings (a listing of ids asks for 100 at most).
    if (all)
      fixed = { kind: "ok", resource, records: fix.ids.map((id) => ({ id, name: all.names.get(id) ?? `#${id}` })), total: fix.ids.length, truncated: false, notices: [] };
    const edit = fix.edit;
    defaults = {
      edit: edit.kind,
      title: fix.title,
      ...(edit.kind === "add-notification-email" ? { emails: edit.email } : {}),
      ...(edit.kind === "set-enabled" ? { enabled: edit.enabled ? "true" : "false" } : {}),
    };
  }

  const selection = fixed ?? (await loadSelection(actor, resource, ids ? new URLSearchParams({ ids: ids.join(",") }) : request.options));
  const groups = resource === "webhooks" ? await accountGroups(actor) : [];
  const noun = resource === "webhooks" ? "webhook" : "webhook group";
  return (
    <div className="max-w-3xl space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/plans" className="text-brand-700 underline">
          Plans
        </Link>{" "}
        / New
      </nav>
      {selection.kind !== "ok" ? (
        <StateMessage failure={selection} retryHref={here} />
      ) : (
        <>
          <h1 className="text-2xl font-semibold">Change {plural(selection.records.length, noun)}</h1>
          {fixMessage ? <p className="text-sm text-slate-700">Fixes: {fixMessage}</p> : null}
          {selection.notices.length > 0 ? <Notice tone="warning">{selection.notices.join(" ")}</Notice> : null}
          {selection.truncated ? (
            <Notice tone="warning">
              {selection.total.toLocaleString("en-US")} match; a plan changes at most {selection.records.length.toLocaleString("en-US")}. The first ones by id are
              selected: narrow the filters to choose.
            </Notice>
          ) : null}
          {selection.records.length > LARGE_PLAN_OPERATIONS ? (
            // Said before anyone drafts it: the plan page then gives the cost and time at the current budget.
            <Notice tone="warning" title="A large change" testId="selection-large">
              A plan over {LARGE_PLAN_OPERATIONS.toLocaleString("en-US")} records: up to {(selection.records.length * 2).toLocaleString("en-US")} credits of the API
              budget (each change reads its record, then writes it). The plan shows its exact cost and how long it takes at the current budget before anything is sent.
            </Notice>
          ) : null}
          {selection.records.length === 0 ? (
            <Notice tone="info" testId="selection-empty">
              Nothing is selected: go back to the{" "}
              <Link href={`/${resource}`} className="underline">
                list
              </Link>{" "}
              and filter it to the records to change.
            </Notice>
          ) : (
            <>
              <details className="rounded-md border border-slate-200 bg-white p-3 text-sm" open={selection.records.length <= PREVIEW}>
                <summary className="cursor-pointer font-medium">Selected {noun}s</summary>
                <ul className="mt-2 space-y-0.5" data-testid="selection">
                  {selection.records.slice(0, 200).map((record) => (
                    <li key={record.id} className="break-words">
                      {record.name} <span className="text-slate-500">#{record.id}</span>
                    </li>
                  ))}
                  {selection.records.length > 200 ? <li className="text-slate-500">and {(selection.records.length - 200).toLocaleString("en-US")} more</li> : null}
                </ul>
              </details>
              <BulkEditForm resource={resource} ids={selection.records.map((record) => record.id)} groups={groups} defaults={defaults} />
            </>
          )}
        </>
      )}
    </div>
  );
}

/** A link from another site: nothing read yet; one click here reads the selection. */
function FollowedFromElsewhere({ href }: { href: string }) {
  return (
    <div className="max-w-3xl space-y-4">
      <h1 className="text-2xl font-semibold">Change records of your EMS?</h1>
      <Notice tone="info" title="You followed a link from another site" testId="selection-from-elsewhere">
        It asks for a change to several records. Nothing has been read or drafted yet: reading the selection spends your team&apos;s API credits, so it waits for you to
        ask. Check that you meant to come here, then continue.
      </Notice>
      <div className="flex flex-wrap gap-3">
        <Link href={href} prefetch={false} className={buttonClasses("primary")} data-testid="selection-continue">
          Show what it selects
        </Link>
        <Link href="/plans" className={buttonClasses("secondary")}>
          Go to Plans
        </Link>
      </div>
    </div>
  );
}
