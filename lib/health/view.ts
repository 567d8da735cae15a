import "server-only";
import type { Actor, HealthCounts } from "@/lib/access/actor";
import type { Freshness, ListingFailure, RateBudget } from "@/lib/ems-access/shared-read";
import { getRequiredTriggers } from "@/lib/setup/requirements";
import { utcDay, type TriggerKey } from "@/lib/setup/setup-data";
import { loadSetupResult, type SetupFacts } from "@/lib/setup/stored-results";
import { checkedHealth } from "./checked";
import { webhookHosts } from "./list";
import { applyMutes, listMutes, type HealthMuteRecord, type SplitFindings } from "./mutes";
import { countFindings, recordHealthSummary } from "./report";
import type { Finding } from "./types";

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
  mutes: HealthMuteRecord[];
  requiredTriggers: TriggerKey[];
  counts: HealthCounts;
  budget: RateBudget | null;
  freshness: Freshness;
  /** "stored": the findings as stored for this setup; "computed": the setup was read and checked. */
  source: "stored" | "computed";
}

export type HealthViewOutcome = ({ kind: "ok" } & HealthView) | ListingFailure;

/** What is stored per setup: every finding, and the hosts of the webhooks they name (not the other 20,000). */
interface HealthResult {
  findings: readonly Finding[];
  hosts: readonly (readonly [number, string])[];
}

function healthResult(findings: readonly Finding[], allHosts: ReadonlyMap<number, string>): HealthResult {
  const hosts = new Map<number, string>();
  for (const finding of findings)
    for (const subject of finding.subjects) {
      const host = subject.kind === "webhook" ? allHosts.get(subject.id) : undefined;
      if (host) hosts.set(subject.id, host);
    }
  return { findings, hosts: [...hosts] };
}

/** Hosts as a map, once per stored result (it is frozen and shared by every view). */
const hostMaps = new WeakMap<HealthResult["hosts"], ReadonlyMap<number, string>>();

function hostMap(hosts: HealthResult["hosts"]): ReadonlyMap<number, string> {
  let map = hostMaps.get(hosts);
  if (!map) hostMaps.set(hosts, (map = new Map(hosts)));
  return map;
}

/** The Health page's report for this person (their own credential's account); the navigation's counts stored as `loadHealthReport` stores them. */
export async function loadHealthView(actor: Actor): Promise<HealthViewOutcome> {
  const [requiredTriggers, mutes] = await Promise.all([getRequiredTriggers(actor), listMutes(actor)]);
  const now = new Date();
  const result = await loadSetupResult<HealthResult>(actor, {
    kind: "health",
    optionsKey: `${utcDay(now)}\n${requiredTriggers.join(",")}`,
    compute: (snapshot) => healthResult(checkedHealth(snapshot.data, { now, requiredTriggers }), webhookHosts(snapshot.data)),
  });
  if (result.kind !== "ok") return result;
  const split = applyMutes(result.value.findings, mutes);
  const counts = countFindings(split.active);
  await recordHealthSummary(actor, result.setup.fingerprint, counts);
  return {
    kind: "ok",
    ...split,
    setup: result.setup,
    hosts: hostMap(result.value.hosts),
    mutes,
    requiredTriggers,
    counts,
    budget: result.budget,
    freshness: result.freshness,
    source: result.source,
  };
}
