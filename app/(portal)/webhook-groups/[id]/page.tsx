import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { HeaderList } from "@/components/listing/hidden-value";
import { StateMessage, BudgetLine } from "@/components/listing/state-message";
import { WebhookTable } from "@/components/listing/webhook-table";
import { requireActor } from "@/lib/auth/session";
import { DataAge, LowBudgetNotice, StaleNotice } from "@/components/listing/freshness";
import { loadListing, type Freshness, type RateBudget } from "@/lib/listing/load";
import { groupListingState } from "@/lib/listing/group";

export const metadata: Metadata = { title: "Webhook group" };

function GroupDetails({ id, group, budget, freshness }: { id: number; group: Record<string, unknown>; budget: RateBudget | null; freshness: Freshness }) {
  const emails = Array.isArray(group.notification_emails) ? group.notification_emails.map(String) : [];
  return (
    <div className="space-y-6" data-testid="group-details">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">{String(group.name ?? `Webhook group ${id}`)}</h1>
        <LowBudgetNotice budget={budget} />
        <StaleNotice freshness={freshness} budget={budget} />
        <DataAge freshness={freshness} refresh={{ resource: "webhook-groups", search: "", groupId: id }} />
      </div>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
        <dt className="text-sm font-semibold text-slate-700">ID</dt>
        <dd className="text-sm">{id}</dd>
        <dt className="text-sm font-semibold text-slate-700">Notification emails</dt>
        <dd className="text-sm">{emails.length ? emails.join(", ") : <span className="text-slate-500">None</span>}</dd>
        <dt className="text-sm font-semibold text-slate-700">Headers</dt>
        <dd className="text-sm">
          <HeaderList headers={group.headers} />
        </dd>
      </dl>
      <section aria-labelledby="webhooks-heading" className="space-y-2">
        <h2 id="webhooks-heading" className="text-lg font-semibold text-slate-900">
          Webhooks
        </h2>
        <WebhookTable webhooks={group.webhooks} caption={`Webhooks of ${String(group.name ?? id)}`} showHeaders />
      </section>
      {budget ? <BudgetLine budget={budget} /> : null}
    </div>
  );
}

/**
 * One group. Nothing streams before the group is known: a group that does not exist (or is not in
 * this person's account) answers a real 404, and the status is fixed once the first byte is sent.
 * So this route has no loading.tsx (the list's lives in its (list) group) and no Suspense above the
 * lookup; the wait is bounded by the page budget (EMS_PAGE_BUDGET_MS, lib/listing/load.ts).
 */
export default async function WebhookGroupPage(props: PageProps<"/webhook-groups/[id]">) {
  const actor = await requireActor();
  const { id: raw } = await props.params;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) notFound();
  const id = Number(raw);
  const outcome = await loadListing(actor, groupListingState(id));
  const group = outcome.kind === "ok" ? outcome.items.find((item) => Number(item.id) === id) : undefined;
  if (outcome.kind === "ok" && !group) notFound();
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/webhook-groups" className="text-brand-700 underline">
          Webhook groups
        </Link>{" "}
        / {id}
      </nav>
      {outcome.kind !== "ok" ? (
        <StateMessage failure={outcome} retryHref={`/webhook-groups/${id}`} />
      ) : (
        <GroupDetails id={id} group={group!} budget={outcome.budget} freshness={outcome.freshness} />
      )}
    </div>
  );
}
