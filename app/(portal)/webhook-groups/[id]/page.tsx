import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { HeaderList } from "@/components/listing/hidden-value";
import { StateMessage, BudgetLine } from "@/components/listing/state-message";
import { DataAge, LowBudgetNotice, StaleNotice } from "@/components/listing/freshness";
import { WebhookDetailsList } from "@/components/webhooks/webhook-details";
import { requireActor } from "@/lib/auth/session";
import type { WebhookGroup } from "@/lib/ems";
import { loadGroupEventNames, loadGroupPage, type EventNames } from "@/lib/listing/group";
import type { Freshness, RateBudget } from "@/lib/listing/load";

export const metadata: Metadata = { title: "Webhook group" };

function GroupDetails({
  group,
  budget,
  freshness,
  eventNames,
}: {
  group: WebhookGroup;
  budget: RateBudget | null;
  freshness: Freshness;
  eventNames: Promise<EventNames> | null;
}) {
  const emails = group.notification_emails ?? [];
  const webhooks = group.webhooks ?? [];
  return (
    <div className="space-y-6" data-testid="group-details">
      <div className="space-y-2">
        <h1 className="break-words text-2xl font-semibold text-slate-900">{group.name || `Webhook group ${group.id}`}</h1>
        <LowBudgetNotice budget={budget} />
        <StaleNotice freshness={freshness} budget={budget} />
        <DataAge freshness={freshness} refresh={{ resource: "webhook-groups", search: "", groupId: group.id }} />
      </div>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr] [&>dd]:min-w-0 [&>dt]:font-semibold [&>dt]:text-slate-700">
        <dt>ID</dt>
        <dd>{group.id}</dd>
        <dt>Notification emails</dt>
        <dd className="break-words" data-testid="group-emails">
          {emails.length ? emails.join(", ") : <span className="text-amber-800">None: nobody hears when a delivery fails</span>}
        </dd>
        <dt>Headers</dt>
        <dd>
          <HeaderList headers={group.headers} />
        </dd>
      </dl>
      <section aria-labelledby="webhooks-heading" className="space-y-2">
        <h2 id="webhooks-heading" className="text-lg font-semibold text-slate-900">
          Webhooks <span className="text-sm font-normal text-slate-600">({webhooks.length})</span>
        </h2>
        <WebhookDetailsList webhooks={webhooks} eventNames={eventNames} />
      </section>
      {budget ? <BudgetLine budget={budget} /> : null}
    </div>
  );
}

/**
 * One group, read on its own (one credit, shared like a listing: lib/listing/group.ts). Nothing
 * streams before the group is known: a group that does not exist (or is not in this person's
 * account) answers a real 404, and the status is fixed once the first byte is sent. So this route
 * has no loading.tsx (the list's lives in its (list) group) and no Suspense above the lookup; the
 * wait is bounded by the page budget (EMS_PAGE_BUDGET_MS, lib/listing/load.ts). The names of the
 * events its webhooks fire for come after, streamed into the page.
 */
export default async function WebhookGroupPage(props: PageProps<"/webhook-groups/[id]">) {
  const actor = await requireActor();
  const { id: raw } = await props.params;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) notFound();
  const id = Number(raw);
  const outcome = await loadGroupPage(actor, id);
  if (outcome.kind === "ok" && !outcome.item) notFound();
  const eventNames = outcome.kind === "ok" ? loadGroupEventNames(actor, outcome.item!) : null;
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
        <GroupDetails group={outcome.item!} budget={outcome.budget} freshness={outcome.freshness} eventNames={eventNames} />
      )}
    </div>
  );
}
