import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { HeaderList } from "@/components/listing/hidden-value";
import { StateMessage, BudgetLine } from "@/components/listing/state-message";
import { TableSkeleton } from "@/components/listing/table-skeleton";
import { WebhookTable } from "@/components/listing/webhook-table";
import { requireActor, type Actor } from "@/lib/auth/session";
import { loadListing } from "@/lib/listing/load";
import { parseListingSearchParams, type ListingState } from "@/lib/listing/search-params";
import { WEBHOOK_GROUP_LISTING } from "@/lib/listing/resources";

export const metadata: Metadata = { title: "Webhook group" };

function groupState(id: number): ListingState {
  return {
    ...parseListingSearchParams("webhook-groups", {}),
    fields: [...WEBHOOK_GROUP_LISTING.fields],
    expand: ["webhooks"],
    ids: [id],
  };
}

async function GroupDetails({ actor, id }: { actor: Actor; id: number }) {
  const outcome = await loadListing(actor, groupState(id));
  if (outcome.kind !== "ok") return <StateMessage failure={outcome} retryHref={`/webhook-groups/${id}`} />;
  const group = outcome.items.find((item) => Number(item.id) === id);
  if (!group) {
    return (
      <div className="rounded-md border border-slate-200 bg-white p-6" data-testid="state-empty">
        <h2 className="text-base font-semibold">No webhook group {id} in your account</h2>
        <p className="mt-1 text-sm text-slate-700">
          It may have been deleted, or it belongs to another account.{" "}
          <Link href="/webhook-groups" className="text-brand-700 underline">
            Back to the list
          </Link>
        </p>
      </div>
    );
  }
  const emails = Array.isArray(group.notification_emails) ? group.notification_emails.map(String) : [];
  return (
    <div className="space-y-6" data-testid="group-details">
      <h1 className="text-2xl font-semibold text-slate-900">{String(group.name ?? `Webhook group ${id}`)}</h1>
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
      {outcome.budget ? <BudgetLine budget={outcome.budget} /> : null}
    </div>
  );
}

export default async function WebhookGroupPage(props: PageProps<"/webhook-groups/[id]">) {
  const actor = await requireActor();
  const { id: raw } = await props.params;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) notFound();
  const id = Number(raw);
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/webhook-groups" className="text-brand-700 underline">
          Webhook groups
        </Link>{" "}
        / {id}
      </nav>
      <Suspense fallback={<TableSkeleton rows={4} />}>
        <GroupDetails actor={actor} id={id} />
      </Suspense>
    </div>
  );
}
