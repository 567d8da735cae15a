import { requireActor } from "@/lib/auth/session";
import { getChecklist } from "@/lib/onboarding/checklist";
import { FirstRunChecklist } from "@/components/onboarding/first-run-checklist";

/**
 * The landing page's frame (sign-up and "/" land on the webhook groups listing): the first-run
 * checklist above the listing until the person dismisses it. A layout, so sorting and filtering
 * (client navigations within the listing) do not read it again; until it is dismissed it costs one
 * database statement per visit, which also records that the person has now seen their groups.
 */
export default async function WebhookGroupsListLayout({ children }: { children: React.ReactNode }) {
  const actor = await requireActor();
  // Dismissed (the session's own statement says so): no statement at all.
  const checklist = actor.checklistDismissed ? null : await getChecklist(actor, { markGroupsSeen: true });
  return (
    <>
      {checklist ? <FirstRunChecklist checklist={checklist} /> : null}
      {children}
    </>
  );
}
