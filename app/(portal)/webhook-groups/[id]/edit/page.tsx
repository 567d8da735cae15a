import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { StateMessage } from "@/components/listing/state-message";
import { GroupDeleteForm, GroupEditForm } from "@/components/plans/group-edit-form";
import { buttonClasses } from "@/components/ui/button";
import { authedRecordPage } from "@/lib/actions/page";
import { parseRecordId } from "@/lib/listing/ids";
import { loadGroupForm } from "@/lib/plans/forms";
import { Breadcrumb } from "@/components/ui/breadcrumb";

export const metadata: Metadata = { title: "Edit webhook group" };

/** A group's fields as a draft plan (lib/plans); its webhooks are edited from their own pages. */
export default authedRecordPage(parseRecordId, async ({ actor, id }) => {
  const data = await loadGroupForm(actor, id);
  if (data.kind === "not-found") notFound();
  return (
    <div className="max-w-3xl space-y-4">
      <Breadcrumb
        trail={[
          { href: "/webhook-groups", label: "Webhook groups" },
          { href: `/webhook-groups/${id}`, label: id },
        ]}
        current="Edit"
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="min-w-0 text-2xl font-semibold break-words">Edit {data.kind === "ok" ? `“${data.defaults.name}”` : `group ${id}`}</h1>
        {/* A full page load: a client navigation to /webhooks/new would be taken by the webhook panel's route. */}
        <a href={`/webhooks/new?group=${id}`} className={buttonClasses("secondary", { size: "sm" })}>
          New webhook in this group
        </a>
      </div>
      {data.kind === "ok" ? (
        <>
          <GroupEditForm defaults={data.defaults} />
          <GroupDeleteForm id={id} />
        </>
      ) : (
        <StateMessage failure={data} retryHref={`/webhook-groups/${id}/edit`} />
      )}
    </div>
  );
});
