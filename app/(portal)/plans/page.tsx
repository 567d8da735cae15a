import type { Metadata } from "next";
import Link from "next/link";
import { PlanStatusPill } from "@/components/plans/plan-status";
import { PageLinks } from "@/components/ui/page-links";
import { Time } from "@/components/ui/time";
import { requireActor } from "@/lib/auth/session";
import { parsePlanListParams } from "@/lib/plans/list-params";
import { reviewsPlans } from "@/lib/plans/plan-access";
import { plural } from "@/lib/text/plural";
import { listPlans, PLAN_QUERY_MAX, type PlanListFilter } from "@/lib/plans/page";

export const metadata: Metadata = { title: "Plans" };

const FILTERS: { value: PlanListFilter; label: string }[] = [
  { value: "review", label: "Needs your review" },
  { value: "open", label: "Open" },
  { value: "applied", label: "Applied" },
  { value: "stopped", label: "Stopped" },
  { value: "reverted", label: "Undone" },
  { value: "closed", label: "Rejected or cancelled" },
  { value: "all", label: "All" },
];

/**
 * The team's change plans (issue 27 §2), newest activity first: by state, the ones waiting for this
 * person's review (owners and admins), their own, or by words of the title; all in the URL.
 */
export default async function PlansPage(props: PageProps<"/plans">) {
  const actor = await requireActor();
  const reviewer = await reviewsPlans(actor);
  const filters = FILTERS.filter((option) => option.value !== "review" || reviewer);
  const allowed = filters.map((option) => option.value);
  const { filter, unknownStatus, mine, query, page: requested } = parsePlanListParams(await props.searchParams, allowed);
  const { items, total, page, pageCount } = await listPlans(actor, filter, requested, { mine, query });
  const href = (changes: { status?: string; mine?: boolean; page?: number }) => {
    const params = new URLSearchParams({ status: changes.status ?? filter });
    if (changes.mine ?? mine) params.set("mine", "1");
    if (query) params.set("q", query);
    if (changes.page && changes.page > 1) params.set("page", String(changes.page));
    return `/plans?${params.toString()}`;
  };
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Plans</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every change to the EMS is a plan: drafted, reviewed, applied step by step, and undoable. Start one from a webhook&apos;s page (Edit) or a list.
        </p>
      </div>
      {unknownStatus !== null ? (
        <p className="text-sm text-amber-900" data-testid="plans-unknown-filter">
          There is no “{unknownStatus.slice(0, 40)}” filter here: showing open plans.
        </p>
      ) : null}
      <nav aria-label="Plan states" className="flex max-w-full gap-1 overflow-x-auto">
        {filters.map((option) => (
          <Link
            key={option.value}
            href={href({ status: option.value, page: 1 })}
            aria-current={option.value === filter ? "page" : undefined}
            className={`rounded-full px-3 py-1 text-sm whitespace-nowrap ${option.value === filter ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}
          >
            {option.label}
          </Link>
        ))}
      </nav>
      <form method="get" action="/plans" role="search" className="flex flex-wrap items-center gap-2" aria-label="Find plans">
        <input type="hidden" name="status" value={filter} />
        <label htmlFor="plans-q" className="sr-only">
          Words of the title
        </label>
        <input
          id="plans-q"
          name="q"
          type="search"
          defaultValue={query}
          maxLength={PLAN_QUERY_MAX}
          placeholder="Words of the title"
          className="block w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm sm:w-72"
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="mine" value="1" defaultChecked={mine} className="h-4 w-4 rounded border-slate-300" />
          Only mine
        </label>
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50">
          Find
        </button>
        {query || mine ? (
          <Link href={`/plans?status=${filter}`} className="text-sm text-brand-700 underline">
            Clear
          </Link>
        ) : null}
      </form>
      {items.length === 0 ? (
        <div className="rounded-md border border-slate-200 bg-white p-6 text-center" data-testid="plans-empty">
          <h2 className="text-base font-semibold">{filter === "review" && !query && !mine ? "Nothing waits for your review" : "No plans here"}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {query || mine ? (
              <>
                No plan of this kind matches{query ? ` “${query}”` : ""}
                {mine ? " among yours" : ""}.{" "}
              </>
            ) : null}
            {filter === "review" ? (
              "Plans a teammate sends for review show here until someone approves or rejects them."
            ) : (
              <>
                Open a{" "}
                <Link href="/webhooks" className="text-brand-700 underline">
                  webhook
                </Link>{" "}
                and choose Edit to draft one.
              </>
            )}
          </p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="plans-list">
          {items.map((plan) => (
            <li key={plan.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
              <Link href={`/plans/${plan.id}`} className="min-w-0 flex-1 font-medium break-words text-slate-900 hover:underline">
                {plan.title}
              </Link>
              <PlanStatusPill status={plan.shownStatus} />
              <span className="w-full text-sm text-slate-600 sm:w-auto">
                {plan.operations.toLocaleString("en-US")} {plan.operations === 1 ? "change" : "changes"} · {plan.author ?? "a former member"} ·{" "}
                <Time value={plan.updatedAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <PageLinks page={page} pageCount={pageCount} counted={plural(total, "plan")} hrefFor={(to) => href({ page: to })} />
    </div>
  );
}
