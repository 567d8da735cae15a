import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { StateMessage } from "@/components/listing/state-message";
import { WebhookView } from "@/components/webhooks/webhook-view";
import { buttonClasses } from "@/components/ui/button";
import { authedRecordPage } from "@/lib/actions/page";
import { loadWebhookHistory } from "@/lib/history/group-history";
import { parseRecordId } from "@/lib/listing/ids";
import { loadWebhookPage } from "@/lib/webhooks/page";
import { Breadcrumb } from "@/components/ui/breadcrumb";

export const metadata: Metadata = { title: "Webhook" };

/**
 * One webhook, read on its own (one credit, shared like a listing). Like a group's page, nothing
 * streams before the webhook is known: an id of another account (or none) answers a real 404. Its
 * status line, events and coverage (from the health report) and its history stream in after.
 */
export default authedRecordPage(parseRecordId, async ({ actor, id }) => {
  const data = await loadWebhookPage(actor, id);
  if (data.kind === "not-found") notFound();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Breadcrumb trail={[{ href: "/webhooks", label: "Webhooks" }]} current={id} />
        {data.kind === "ok" ? (
          <Link href={`/webhooks/${id}/edit`} prefetch={false} className={buttonClasses("secondary", { size: "sm" })} data-testid="webhook-edit">
            Edit…
          </Link>
        ) : null}
      </div>
      {data.kind !== "ok" ? (
        <StateMessage failure={data} retryHref={`/webhooks/${id}`} />
      ) : (
        <WebhookView page={data} history={data.webhook.group_id == null ? null : loadWebhookHistory(actor, data.webhook.group_id, data.webhook.id)} />
      )}
    </div>
  );
});
