import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { StateMessage } from "@/components/listing/state-message";
import { WebhookEditForm } from "@/components/plans/webhook-edit-form";
import { WebhookMoreForms } from "@/components/plans/webhook-more-forms";
import { authedRecordPage } from "@/lib/actions/page";
import { TRIGGER_OBJECTS, WEBHOOK_CONTENT_TYPES } from "@/lib/ems/contract";
import { parseRecordId } from "@/lib/listing/ids";
import { draftChangesOf, draftParam, loadWebhookForm, withDraft } from "@/lib/plans/forms";
import { Breadcrumb } from "@/components/ui/breadcrumb";

export const metadata: Metadata = { title: "Edit webhook" };

/** A webhook's fields as a draft plan (lib/plans): nothing reaches the EMS before review and apply. */
export default authedRecordPage(parseRecordId, async ({ actor, id, search }) => {
  const planId = draftParam(search);
  const [data, draft] = await Promise.all([loadWebhookForm(actor, id), planId ? draftChangesOf(actor, planId, id) : null]);
  if (data.kind === "not-found") notFound();
  const replacesPlanId = draft ? planId : null;
  return (
    <div className="max-w-3xl space-y-4">
      <Breadcrumb
        trail={[
          { href: "/webhooks", label: "Webhooks" },
          { href: `/webhooks/${id}`, label: id },
        ]}
        current="Edit"
      />
      <h1 className="text-2xl font-semibold break-words">Edit {data.kind === "ok" ? `“${data.defaults.name}”` : `webhook ${id}`}</h1>
      {data.kind === "ok" ? (
        <>
          {replacesPlanId ? (
            <p className="text-sm text-slate-600">Editing your draft: saving replaces it. Header changes of the draft are not shown; enter them again.</p>
          ) : null}
          <WebhookEditForm
            defaults={draft ? withDraft(data.defaults, draft) : data.defaults}
            groups={data.groups}
            triggerObjects={TRIGGER_OBJECTS}
            contentTypes={WEBHOOK_CONTENT_TYPES}
            replacesPlanId={replacesPlanId}
          />
          <WebhookMoreForms id={id} groups={data.groups} />
        </>
      ) : (
        <StateMessage failure={data} retryHref={`/webhooks/${id}/edit`} />
      )}
    </div>
  );
});
