import { RecordNotFound } from "@/components/listing/record-not-found";
import { StateMessage } from "@/components/listing/state-message";
import { SidePanel } from "@/components/shell/side-panel";
import { WebhookView } from "@/components/webhooks/webhook-view";
import { requireActor } from "@/lib/auth/session";
import { loadWebhookAt } from "@/lib/webhooks/page";

/**
 * A webhook opened from a list (a client navigation to /webhooks/{id}): the same view as its page,
 * in a side panel over the list, with a link to the full page (which a reload or a shared link opens).
 * The data function checks access as the page does: another account's id is "not found" here too.
 */
export default async function WebhookPanel(props: PageProps<"/webhooks/[id]">) {
  const actor = await requireActor();
  const param = (await props.params).id;
  const data = await loadWebhookAt(actor, param);
  return (
    // Keyed by the record: another webhook's panel is a new one, opened at its own address (SidePanel).
    <SidePanel
      key={param}
      title={data.kind === "ok" ? data.webhook.name || `Webhook ${data.webhook.id}` : "Webhook"}
      fullPageHref={data.kind === "ok" ? `/webhooks/${data.webhook.id}` : null}
    >
      {data.kind === "not-found" ? (
        <RecordNotFound title="No such webhook in your account" backHref="/webhooks" backLabel="Back to the list" testId="webhook-not-found" />
      ) : data.kind !== "ok" ? (
        <StateMessage failure={data} retryHref={`/webhooks/${param}`} />
      ) : (
        <WebhookView page={data} history={null} titleLevel="h2" />
      )}
    </SidePanel>
  );
}
