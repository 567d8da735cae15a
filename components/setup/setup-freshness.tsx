import { LISTING_COST } from "@/lib/ems/config";
import type { Freshness, RateBudget } from "@/lib/ems-access/shared-read";
import type { SetupFacts, SetupUpdating } from "@/lib/setup/stored-results";
import { LowBudgetNotice, StaleNotice } from "@/components/listing/freshness";
import { DataStatus } from "@/components/listing/data-status";
import { RefreshSetupButton } from "./refresh-setup-button";
import { plural } from "@/lib/text/plural";
import { Time } from "@/components/ui/time";

/**
 * While a plan is being applied to the account, Health and Coverage show their figures as they
 * were (lib/setup/stored-results.ts): this says so, and when they are from.
 */
export function SetupUpdatingNotice({ updating }: { updating: SetupUpdating | null }) {
  if (!updating) return null;
  return (
    <p role="status" className="rounded border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900" data-testid="setup-updating">
      <span className="font-medium">Being updated:</span> a plan is being applied to this account, so these figures are from <Time value={updating.asOf} />, before its
      latest changes. They are worked out again once it stops.
    </p>
  );
}

/**
 * Above a page built on the whole setup (coverage, health, an event's page): what it was read
 * from, how old it is, and a refresh that says its cost (one listing call per page of groups and
 * of events, 10 credits each).
 */
export function SetupFreshness({
  setup,
  freshness,
  budget,
  returnTo,
  status = true,
  updating = null,
}: {
  /** What the page was built on (`setupFacts(snapshot)`, or a stored result's). */
  setup: SetupFacts;
  freshness: Freshness;
  budget: RateBudget | null;
  returnTo: string;
  /** False where the page shows the indicator in its header (SetupStatus). */
  status?: boolean;
  /** A stored result's: a plan is being applied to the account. */
  updating?: SetupUpdating | null;
}) {
  return (
    <div className="space-y-2">
      <SetupUpdatingNotice updating={updating} />
      <LowBudgetNotice budget={budget} />
      <StaleNotice freshness={freshness} budget={budget} />
      {setup.partial ? (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Some groups or events may be missing: the account is larger than the portal reads at once (40,000 of each), or it changed while it was read. Refresh to read it
          again.
        </p>
      ) : null}
      {status ? (
        <div className="flex justify-end">
          <SetupStatus setup={setup} freshness={freshness} budget={budget} returnTo={returnTo} updating={updating} />
        </div>
      ) : null}
    </div>
  );
}

/**
 * How old the setup is and the API budget, as one small indicator; its panel says what was read and
 * holds the refresh (which says its cost). Not a sentence on every page. While a plan is being
 * applied to the account the figures are not worked out again (SetupUpdatingNotice), so there is no
 * refresh to spend credits on: the panel says when they will be.
 */
export function SetupStatus({
  setup,
  freshness,
  budget,
  returnTo,
  updating = null,
}: {
  setup: SetupFacts;
  freshness: Freshness;
  budget: RateBudget | null;
  returnTo: string;
  updating?: SetupUpdating | null;
}) {
  const { groups, webhooks, events } = setup;
  return (
    <span data-testid="setup-freshness">
      <DataStatus
        age={{ seconds: freshness.ageSeconds, stale: freshness.stale, windowSeconds: freshness.windowSeconds }}
        budget={budget ? { limit: budget.limit, remaining: budget.remaining, resetInSeconds: budget.resetInSeconds, low: budget.low } : null}
        details={`The whole setup: ${plural(groups, "group")}, ${plural(webhooks, "webhook")}, ${plural(events, "event")}.`}
        refresh={
          updating ? (
            <span className="text-slate-600" data-testid="setup-refresh-after-plan">
              A plan is being applied: these figures are worked out again once it stops.
            </span>
          ) : (
            <RefreshSetupButton returnTo={returnTo} credits={setup.refreshCalls * LISTING_COST} />
          )
        }
      />
    </span>
  );
}
