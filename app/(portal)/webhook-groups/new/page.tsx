import type { Metadata } from "next";
import { GroupEditForm, NEW_GROUP } from "@/components/plans/group-edit-form";
import { requireActor } from "@/lib/auth/session";
import { Breadcrumb } from "@/components/ui/breadcrumb";

export const metadata: Metadata = { title: "New webhook group" };

/** A new webhook group as a draft plan: created in the EMS only once the plan is reviewed and applied. */
export default async function NewGroupPage() {
  await requireActor();
  return (
    <div className="max-w-3xl space-y-4">
      <Breadcrumb trail={[{ href: "/webhook-groups", label: "Webhook groups" }]} current="New" />
      <h1 className="text-2xl font-semibold">New webhook group</h1>
      <p className="text-sm text-slate-600">Its webhooks are added once it exists: from its page, “New webhook in this group”.</p>
      <GroupEditForm defaults={NEW_GROUP} />
    </div>
  );
}
