import type { EmsEvent, WebhookGroup } from "@/lib/ems";
import { utcDay, type SetupData } from "@/lib/setup/setup-data";
import { runHealthChecks, type Finding, type RuleContext } from "./rules";

/**
 * The health checks of a setup, kept while the setup is the same. The rules are pure over the data,
 * the UTC day of `now` (the only use of the clock: "live" and "ended", lib/health/rules.ts `analyze`)
 * and the required triggers, and a run over 5,000 groups (20,000 webhooks, 2,000 events) costs
 * about 0.7 s (bench:coverage): every Health view of a large account paid it, though the team's
 * setup changes at most once a sharing window.
 *
 * A setup is "the same" by identity: lib/setup/load.ts gives the same frozen arrays while every
 * page is the same opened shared answer. A setup that is not frozen (just asked from the API, a
 * test's data) is checked each time. Weak by the groups' and events' arrays: an entry goes with them.
 * The findings are frozen: one list serves many page views, and none may change it for the next.
 */
const checked = new WeakMap<readonly WebhookGroup[], WeakMap<readonly EmsEvent[], { key: string; findings: readonly Finding[] }>>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** `runHealthChecks(data, context)`, from memory when this setup was checked on the same UTC day with the same required triggers. */
export function checkedHealth(data: SetupData, context: RuleContext): readonly Finding[] {
  if (!Object.isFrozen(data.groups) || !Object.isFrozen(data.events)) return runHealthChecks(data, context);
  const key = `${utcDay(context.now)}\n${context.requiredTriggers.join(",")}`;
  const byEvents = checked.get(data.groups);
  const known = byEvents?.get(data.events);
  if (known?.key === key) return known.findings;
  const findings = deepFreeze(runHealthChecks(data, context));
  if (byEvents) byEvents.set(data.events, { key, findings });
  else checked.set(data.groups, new WeakMap([[data.events, { key, findings }]]));
  return findings;
}
