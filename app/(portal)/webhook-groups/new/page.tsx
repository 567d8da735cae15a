import type { Metadata } from "next";
import Link from "next/link";
import { GroupEditForm, NEW_GROUP } from "@/components/plans/group-edit-form";
import { requireActor } from "@/lib/auth/session";

export const metadata: Metadata = { title: "New webhook group" };

/** A new webhook group as a draft plan: created in the EMS only once the plan is reviewed and applied. */
export default async function NewGroupPage() {
  await requireActor();
  return (
    <div className="max-w-3xl space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/webhook-groups" className="text-brand-700 underline">
          Webhook groups
        </Link>{" "}
        / New
      </nav>
      <h1 className="text-2xl font-semibold">New webhook group</h1>
      <p className="text-sm text-slate-600">Its webhooks are added once it exists: from its page, “New webhook in this group”.</p>
      <GroupEditForm defaults={NEW_GROUP} />
    </div>
  );
}
