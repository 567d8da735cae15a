import type { Metadata } from "next";
import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { getBudgetOverview } from "@/lib/credentials/budget";
import { Notice } from "@/components/ui/notice";
import { BudgetUsage } from "@/components/settings/budget-usage";
import { SettingsHeading } from "@/components/settings/settings-heading";

export const metadata: Metadata = { title: "API budget · Settings" };

export default async function BudgetSettingsPage() {
  const actor = await requireActor();
  const budget = await getBudgetOverview(actor);
  return (
    <div>
      <SettingsHeading title="API budget">
        The EMS API counts credits per key in a rate-limit window. What your key has left, and what {actor.teamName} spent with it in the last hour.
      </SettingsHeading>
      {budget ? (
        <section aria-label="Credits of your key" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
          <BudgetUsage overview={budget} />
        </section>
      ) : (
        <Notice tone="info" testId="budget-no-credentials">
          There is no budget to show before you save API credentials.{" "}
          <Link href="/settings/credentials" className="font-medium underline">
            Add them
          </Link>
          .
        </Notice>
      )}
    </div>
  );
}
