import type { Metadata } from "next";
import Link from "next/link";
import { canManageTeam } from "@/lib/access/roles";
import { requireActor } from "@/lib/auth/session";
import { checkPolicies, isDraftable } from "@/lib/health/policies";
import { HEALTH_RULES } from "@/lib/health/rules";
import { getNewEventWebhooks, getRequiredTriggers } from "@/lib/setup/requirements";
import { triggerLabel } from "@/lib/setup/triggers";
import { NewEventWebhooksForm } from "@/components/settings/new-event-webhooks-form";
import { CheckPolicyForm, POLICY_CHOICES } from "@/components/settings/check-policy-form";
import { SettingsHeading } from "@/components/settings/settings-heading";
import { SeverityBadge } from "@/components/health/severity-badge";

export const metadata: Metadata = { title: "Health checks · Settings" };

/** Each Health check and what the team wants done with its findings (lib/health/policies.ts): owners and admins choose, members read. */
export default async function CheckPoliciesPage() {
  const actor = await requireActor();
  const [policies, newEvents, requiredTriggers] = await Promise.all([checkPolicies(actor), getNewEventWebhooks(actor), getRequiredTriggers(actor)]);
  const manager = canManageTeam(actor.role);
  return (
    <div>
      <SettingsHeading title="Health checks">
        What {actor.teamName} wants done with each check&apos;s findings. “Draft the fix” makes one plan for all of a check&apos;s new findings after each sync of the
        tracked account, as EMS Portal on behalf of the team; it waits in{" "}
        <Link href="/plans" className="text-brand-700 underline">
          Plans
        </Link>{" "}
        for an owner or admin to approve and apply, and nothing is sent before.
      </SettingsHeading>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" id="check-policies" data-testid="check-policies">
        {HEALTH_RULES.map((rule) => {
          const policy = policies[rule.id];
          return (
            <li key={rule.id} className="space-y-2 px-4 py-3" data-testid="check-policy">
              <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-1">
                <SeverityBadge severity={rule.severity} />
                <h2 className="min-w-0 text-sm font-semibold break-words text-slate-900">{rule.title}</h2>
              </div>
              {manager ? (
                <CheckPolicyForm
                  ruleId={rule.id}
                  title={rule.title}
                  policy={policy}
                  draftable={isDraftable(rule.id)}
                  // Its fix is drafted by the webhooks the team names for new events (below), not by a policy of its own.
                  undraftableNote={rule.id === "required-trigger-missing" ? "Its fixes are drafted through “Webhooks for new events” below." : undefined}
                />
              ) : (
                <p className="text-sm text-slate-700">{POLICY_CHOICES.find((choice) => choice.value === policy)?.label}</p>
              )}
            </li>
          );
        })}
      </ul>
      {manager ? null : <p className="mt-3 text-sm text-slate-600">Owners and admins choose these.</p>}
      <section className="mt-8 space-y-3" aria-labelledby="new-events-heading" data-testid="new-event-webhooks">
        <h2 id="new-events-heading" className="text-lg font-semibold text-slate-900">
          Webhooks for new events
        </h2>
        <p className="max-w-3xl text-sm text-slate-600">
          A live event that misses a required trigger (
          {requiredTriggers.length === 0 ? "none is required yet: choose them in " : `${requiredTriggers.map(triggerLabel).join(", ")}; change them in `}
          <Link href="/coverage" className="text-brand-700 underline">
            Coverage
          </Link>
          ) gets a drafted plan that adds it to these webhooks, after the sync that finds it.
        </p>
        {manager ? (
          <NewEventWebhooksForm webhookIds={newEvents.webhookIds} groupId={newEvents.groupId} />
        ) : (
          <p className="text-sm text-slate-700">
            {newEvents.webhookIds.length === 0 && newEvents.groupId === null
              ? "None named."
              : [newEvents.webhookIds.map((id) => `#${id}`).join(", "), newEvents.groupId !== null ? `every webhook of group #${newEvents.groupId}` : ""]
                  .filter(Boolean)
                  .join(" and ")}
          </p>
        )}
      </section>
    </div>
  );
}
