import { redirect } from "next/navigation";
import { requireActor } from "@/lib/auth/session";
import { getChecklist } from "@/lib/onboarding/checklist";

/**
 * Home: the webhooks list for a person whose account is connected (or who put the first-run
 * checklist away); until then the webhook groups list, where the first-run checklist lives.
 */
export default async function Home() {
  const actor = await requireActor();
  const checklist = actor.checklistDismissed ? null : await getChecklist(actor);
  const connected = !checklist || checklist.steps.some((step) => step.key === "connect" && step.done);
  redirect(connected ? "/webhooks" : "/webhook-groups");
}
