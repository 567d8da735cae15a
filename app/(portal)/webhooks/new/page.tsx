import type { Metadata } from "next";
import { WebhookEditForm } from "@/components/plans/webhook-edit-form";
import { requireActor } from "@/lib/auth/session";
import { TRIGGER_OBJECTS, WEBHOOK_CONTENT_TYPES } from "@/lib/ems/contract";
import { parseRecordId } from "@/lib/listing/ids";
import { pageSearchParams } from "@/lib/page-search-params";
import { loadNewWebhookForm } from "@/lib/plans/forms";
import { Breadcrumb } from "@/components/ui/breadcrumb";

export const metadata: Metadata = { title: "New webhook" };

/** A new webhook as a draft plan: created in the EMS only once the plan is reviewed and applied. */
export default async function NewWebhookPage(props: PageProps<"/webhooks/new">) {
  const actor = await requireActor();
  const group = parseRecordId(pageSearchParams(await props.searchParams).get("group") ?? "");
  const data = await loadNewWebhookForm(actor, group);
  return (
    <div className="max-w-3xl space-y-4">
      <Breadcrumb trail={[{ href: "/webhooks", label: "Webhooks" }]} current="New" />
      <h1 className="text-2xl font-semibold">New webhook</h1>
      <WebhookEditForm defaults={data.defaults} groups={data.groups} triggerObjects={TRIGGER_OBJECTS} contentTypes={WEBHOOK_CONTENT_TYPES} />
    </div>
  );
}
