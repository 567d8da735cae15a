import type { Metadata } from "next";
import Link from "next/link";
import { PlanStatusPill } from "@/components/plans/plan-status";
import { Time } from "@/components/ui/time";
import { requireActor } from "@/lib/auth/session";
import { listPlans, PLAN_FILTERS, type PlanFilter } from "@/lib/plans/page";

export const metadata: Metadata = { title: "Plans" };

const FILTERS: { value: PlanFilter | "reverted"; label: string }[] = [
  { value: "open", label: "Open" },
  { value: "applied", label: "Applied" },
  { value: "stopped", label: "Stopped" },
  { value: "reverted", label: "Undone" },
  { value: "closed", label: "Rejected or cancelled" },
  { value: "all", label: "All" },
];

/** The team's change plans (issue 27 §2), newest activity first, by state. */
export default async function PlansPage(props: PageProps<"/plans">) {
  const actor = await requireActor();
  const search = await props.searchParams;
  const raw = typeof search.status === "string" ? search.status : "open";
  const filter = (raw in PLAN_FILTERS || raw === "all" || raw === "reverted" ? raw : "open") as PlanFilter | "reverted";
  const pageNumber = Number(typeof search.page === "string" ? search.page : "1");
  const { items, total, page, pageCount } = await listPlans(actor, filter, Number.isFinite(pageNumber) ? pageNumber : 1);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Plans</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every change to the EMS is a plan: drafted, reviewed, applied step by step, and undoable. Start one from a webhook&apos;s page (Edit) or a list.
        </p>
      </div>
      {raw !== filter ? <p className="text-sm text-amber-900">There is no “{raw.slice(0, 40)}” filter: showing open plans.</p> : null}
      <nav aria-label="Plan states" className="flex max-w-full gap-1 overflow-x-auto">
        {FILTERS.map((option) => (
          <Link
            key={option.value}
            href={`/plans?status=${option.value}`}
            aria-current={option.value === filter ? "page" : undefined}
            className={`rounded-full px-3 py-1 text-sm whitespace-nowrap ${option.value === filter ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}
          >
            {option.label}
          </Link>
        ))}
      </nav>
      {items.length === 0 ? (
        <div className="rounded-md border border-slate-200 bg-white p-6 text-center" data-testid="plans-empty">
          <h2 className="text-base font-semibold">No plans here</h2>
          <p className="mt-1 text-sm text-slate-600">
            Open a{" "}
            <Link href="/webhooks" className="text-brand-700 underline">
              webhook
            </Link>{" "}
            and choose Edit to draft one.
          </p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="plans-list">
          {items.map((plan) => (
            <li key={plan.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
              <Link href={`/plans/${plan.id}`} className="min-w-0 flex-1 font-medium break-words text-slate-900 hover:underline">
                {plan.title}
              </Link>
              <PlanStatusPill status={plan.status} />
              <span className="w-full text-sm text-slate-600 sm:w-auto">
                {plan.operations.toLocaleString("en-US")} {plan.operations === 1 ? "change" : "changes"} · {plan.author ?? "a former member"} ·{" "}
                <Time value={plan.updatedAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 ? (
        <p className="text-sm text-slate-600">
          Page {page} of {pageCount} ({total.toLocaleString("en-US")} plans){" "}
          {page < pageCount ? (
            <Link href={`/plans?status=${filter}&page=${page + 1}`} className="text-brand-700 underline">
              Next
            </Link>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
