import "server-only";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";

/**
 * Where every drafting action ends: the new plan's page (and the list shows it), to see the diff
 * and the impact before anything is sent for review. A draft changes nothing in the EMS, so the
 * drafting actions need no recent password (approving and applying do: lib/plans/lifecycle.ts).
 */
export function showPlan({ planId }: { planId: string }): never {
  revalidatePath("/plans");
  redirect(`/plans/${planId}`);
}
