import "server-only";
import type { Actor, HealthCounts } from "@/lib/access/actor";
import type { Freshness, ListingFailure, RateBudget } from "@/lib/ems-access/shared-read";
import { getRequiredTriggers } from "@/lib/setup/requirements";
import { labelOf, urlParts, utcDay, type SetupData, type TriggerKey } from "@/lib/setup/setup-data";
import { loadSetupResult, type SetupFacts, type SetupUpdating } from "@/lib/setup/stored-results";
import { checkedHealth } from "./checked";
import { applyMutes, listMutes, type HealthMuteRecord, type SplitFindings } from "./mutes";
import { countFindings, recordHealthSummary } from "./report";
import type { Finding, RuleContext } from "./types";

/**
 * The Health page's report: what `loadHealthReport` gives, without the setup. The findings and the
 * hosts of the webhooks they name are a stored result per setup (lib/setup/stored-results.ts), so a
 * process that has not read the account's setup shows the page from about a megabyte; the team's
 * mutes and required triggers are read each view, as before.
 */
export interface HealthView extends SplitFindings {
  setup: SetupFacts;
  /** The URL host of each webhook a finding names (the list's host filter and rows). */
  hosts: ReadonlyMap<number, string>;
  /** Every group's name as the lists show it (`labelOf`): the webhooks list's group column. */
  groupNames: ReadonlyMap<number, string>;
  mutes: HealthMuteRecord[];
  requiredTriggers: TriggerKey[];
  counts: HealthCounts;
  budget: RateBudget | null;
  freshness: Freshness;
  /** "stored": the findings as stored for this setup; "computed": the setup was read and checked. */
  source: "stored" | "computed";
  /** A plan is being applied to the account: the findings as they were then (the page says so). */
  updating: SetupUpdating | null;
}

export type HealthViewOutcome = ({ kind: "ok" } & HealthView) | ListingFailure;

/**
 * What is stored per setup: every finding, the hosts of the webhooks they name (not the other
 * 20,000), and the groups' names (what the webhooks list shows beside its rows with the findings).
 */
interface HealthResult {
  findings: readonly Finding[];
  hosts: readonly (readonly [number, string])[];
  groupNames: readonly (readonly [number, string])[];
}

/**
 * The findings of a setup with their webhooks' hosts. The findings are `checkedHealth`'s, the memo
 * a plan's impact reads (lib/plans/impact.ts) for the same setup, day and required triggers: run
 * apart, each team's kept result and the memo held a copy of their own (three 2.8 MB copies of a
 * 5,000-group account's findings in a heap snapshot after bench:memory's review), where now they
 * are one list. Not `webhookHosts`: its map of all 20,000 webhooks' hosts is more than the result needs.
 */
function healthResult(data: SetupData, context: RuleContext): HealthResult {
  const findings = checkedHealth(data, context);
  const named = new Set<number>();
  for (const finding of findings) for (const subject of finding.subjects) if (subject.kind === "webhook") named.add(subject.id);
  const hosts: [number, string][] = [];
  for (const group of data.groups)
    for (const hook of group.webhooks ?? []) {
      const host = named.has(hook.id) ? urlParts(hook.url)?.host : undefined;
      if (host) hosts.push([hook.id, host]);
    }
  return { findings, hosts, groupNames: data.groups.map((group) => [group.id, labelOf(group)] as const) };
}

/** A stored list of pairs as a map, once per stored result (it is frozen and shared by every view). */
const pairMaps = new WeakMap<readonly (readonly [number, string])[], ReadonlyMap<number, string>>();

function pairMap(pairs: readonly (readonly [number, string])[]): ReadonlyMap<number, string> {
  let map = pairMaps.get(pairs);
  if (!map) pairMaps.set(pairs, (map = new Map(pairs)));
  return map;
}

/** The Health page's report for this person (their own credential's account); the navigation's counts stored as `loadHealthReport` stores them. */
export async function loadHealthView(actor: Actor): Promise<HealthViewOutcome> {
  const [requiredTriggers, mutes] = await Promise.all([getRequiredTriggers(actor), listMutes(actor)]);
  const now = new Date();
  const result = await loadSetupResult<HealthResult>(actor, {
    kind: "health",
    format: 1,
    optionsKey: `${utcDay(now)}\n${requiredTriggers.join(",")}`,
    compute: (snapshot) => healthResult(snapshot.data, { now, requiredTriggers }),
  });
  if (result.kind !== "ok") return result;
  const split = applyMutes(result.value.findings, mutes);
  const counts = countFindings(split.active);
  await recordHealthSummary(actor, result.setup.fingerprint, counts);
  return {
    kind: "ok",
    ...split,
    setup: result.setup,
    hosts: pairMap(result.value.hosts),
    groupNames: pairMap(result.value.groupNames),
    mutes,
    requiredTriggers,
    counts,
    budget: result.budget,
    freshness: result.freshness,
    source: result.source,
    updating: result.updating,
  };
}
