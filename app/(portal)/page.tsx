import { redirect } from "next/navigation";
import { requireActor } from "@/lib/auth/session";
import { hasWorkingCredential } from "@/lib/onboarding/checklist";

/**
 * Home: the webhooks list for a person whose credentials work; until then the webhook groups
 * list, where the first-run checklist (connect an account first) lives.
 */
export default async function Home() {
  const actor = await requireActor();
  redirect((await hasWorkingCredential(actor)) ? "/webhooks" : "/webhook-groups");
}
