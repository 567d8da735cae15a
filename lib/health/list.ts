import { z } from "zod";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import { urlParts, type SetupData } from "@/lib/setup/setup-data";
import { HEALTH_RULES } from "./rules";
import { SEVERITY_ORDER, type Finding, type Severity } from "./types";

/**
 * The Health page as a list: its filters (all in the URL, parsed by one schema that falls back and
 * says so, never throws), the findings they keep, grouped by rule, one page at a time. Pure: the
 * page hands it the report's findings and the account's data, so a large account (2,900 findings)
 * renders one page of rows, not all of them.
 */

/** Findings per page: a page of the large account stays well under 300 kB of HTML. */
export const HEALTH_PAGE_SIZE = 50;

export const MUTED_CHOICES = ["hide", "only", "all"] as const;
export type MutedChoice = (typeof MUTED_CHOICES)[number];

export interface HealthFilters {
  severity: Severity | null;
  rule: string | null;
  group: number | null;
  event: number | null;
  /** part of a webhook's URL host (any case) */
  host: string;
  /** "hide" (default): unmuted findings; "only": muted ones; "all": both */
  muted: MutedChoice;
  /** words in the finding's sentence (any case) */
  q: string;
  page: number;
  notices: string[];
}

const RULE_IDS = HEALTH_RULES.map((rule) => rule.id) as [string, ...string[]];
const id = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const text = z.string().max(200);

/** One parameter: absent or empty is the default; a value the schema refuses is the default, with a notice. */
function read<T>(params: URLSearchParams, name: string, label: string, schema: z.ZodType<T>, fallback: T, notices: string[]): T {
  const raw = params.get(name)?.trim() ?? "";
  if (raw === "") return fallback;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  notices.push(`“${raw.slice(0, 40)}” is not a ${label}; that filter is off.`);
  return fallback;
}

export function parseHealthParams(input: URLSearchParams | PageSearchParams): HealthFilters {
  const params = pageSearchParams(input);
  const notices: string[] = [];
  return {
    severity: read(params, "severity", "severity (error, warning or notice)", z.enum(SEVERITY_ORDER as [Severity, ...Severity[]]), null, notices),
    rule: read(params, "rule", "health check", z.enum(RULE_IDS), null, notices),
    group: read(params, "group", "group id", id, null, notices),
    event: read(params, "event", "event id", id, null, notices),
    host: read(params, "host", "host (200 characters at most)", text, "", notices).toLowerCase(),
    muted: read(params, "muted", "choice for muted (hide, only or all)", z.enum(MUTED_CHOICES), "hide", notices),
    q: read(params, "q", "search (200 characters at most)", text, "", notices),
    page: z.coerce
      .number()
      .int()
      .min(1)
      .max(100_000)
      .catch(1)
      .parse(params.get("page") ?? 1),
    notices,
  };
}

export type HealthFilterName = "severity" | "rule" | "group" | "event" | "host" | "muted" | "q";

/** The page's URL with some filters changed (defaults left out); a filter change goes back to page 1. */
export function healthHref(filters: HealthFilters, change: Partial<Omit<HealthFilters, "notices">> = {}): string {
  const next = { ...filters, ...(("page" in change ? {} : { page: 1 }) as Partial<HealthFilters>), ...change };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.severity) params.set("severity", next.severity);
  if (next.rule) params.set("rule", next.rule);
  if (next.group !== null) params.set("group", String(next.group));
  if (next.event !== null) params.set("event", String(next.event));
  if (next.host) params.set("host", next.host);
  if (next.muted !== "hide") params.set("muted", next.muted);
  if (next.page > 1) params.set("page", String(next.page));
  const query = params.toString();
  return query ? `/health?${query}` : "/health";
}

/** The filters that narrow the list (muted aside: its default is a choice too). */
export function activeFilters(filters: HealthFilters): HealthFilterName[] {
  const names: HealthFilterName[] = [];
  if (filters.q) names.push("q");
  if (filters.severity) names.push("severity");
  if (filters.rule) names.push("rule");
  if (filters.group !== null) names.push("group");
  if (filters.event !== null) names.push("event");
  if (filters.host) names.push("host");
  if (filters.muted !== "hide") names.push("muted");
  return names;
}

/** A finding as the list shows it: muted or not, and the hosts of the webhooks it names. */
export interface HealthRow<M = unknown> {
  finding: Finding;
  mute: M | null;
  hosts: readonly string[];
}

/**
 * The hosts of a setup's groups while they are the same frozen array (lib/setup/load.ts): 20,000
 * URLs parsed on every Health view of a large account, though the setup changes once a window.
 */
const hostsOfGroups = new WeakMap<SetupData["groups"], ReadonlyMap<number, string>>();

/** Each webhook's URL host, read once for the host filter and the rows (never more of the URL). */
export function webhookHosts(data: SetupData): ReadonlyMap<number, string> {
  const known = hostsOfGroups.get(data.groups);
  if (known) return known;
  const hosts = readHosts(data);
  if (Object.isFrozen(data.groups)) hostsOfGroups.set(data.groups, hosts);
  return hosts;
}

function readHosts(data: SetupData): Map<number, string> {
  const hosts = new Map<number, string>();
  for (const group of data.groups) {
    for (const hook of group.webhooks ?? []) {
      const host = urlParts(hook.url)?.host;
      if (host) hosts.set(hook.id, host);
    }
  }
  return hosts;
}

const RULE_RANK = new Map(
  [...HEALTH_RULES].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity)).map((rule, index) => [rule.id, index]),
);

/**
 * Every finding, shown and muted, as rows in the report's order (by severity, then rule; a rule's
 * muted findings after its shown ones), each with its webhooks' hosts.
 */
export function healthRows<M>(active: readonly Finding[], muted: readonly { finding: Finding; mute: M }[], hosts: ReadonlyMap<number, string>): HealthRow<M>[] {
  const hostsOf = (finding: Finding) => [
    ...new Set(finding.subjects.flatMap((subject) => (subject.kind === "webhook" && hosts.has(subject.id) ? [hosts.get(subject.id)!] : []))),
  ];
  const rows: HealthRow<M>[] = [
    ...active.map((finding) => ({ finding, mute: null, hosts: hostsOf(finding) })),
    ...muted.map(({ finding, mute }) => ({ finding, mute, hosts: hostsOf(finding) })),
  ];
  // Stable: within a rule, the report's own order (by key) stays.
  return rows.sort((a, b) => (RULE_RANK.get(a.finding.ruleId) ?? 99) - (RULE_RANK.get(b.finding.ruleId) ?? 99) || Number(a.mute !== null) - Number(b.mute !== null));
}

function matches(row: HealthRow, filters: HealthFilters, needle: string): boolean {
  const { finding } = row;
  if (filters.muted === "hide" && row.mute !== null) return false;
  if (filters.muted === "only" && row.mute === null) return false;
  if (filters.severity && finding.severity !== filters.severity) return false;
  if (filters.rule && finding.ruleId !== filters.rule) return false;
  if (filters.group !== null && !finding.subjects.some((s) => (s.kind === "group" && s.id === filters.group) || (s.kind === "webhook" && s.groupId === filters.group)))
    return false;
  if (filters.event !== null && !finding.subjects.some((s) => s.kind === "event" && s.id === filters.event)) return false;
  if (filters.host && !row.hosts.some((host) => host.includes(filters.host))) return false;
  if (needle && !finding.message.toLocaleLowerCase().includes(needle)) return false;
  return true;
}

/** The rows the filters keep, in order (before paging). */
export function filterHealthRows<M>(rows: readonly HealthRow<M>[], filters: HealthFilters): HealthRow<M>[] {
  const needle = filters.q.toLocaleLowerCase();
  return rows.filter((row) => matches(row, filters, needle));
}

export interface RuleGroup<M = unknown> {
  ruleId: string;
  severity: Severity;
  /** the rule's findings among all the filters keep (every page) */
  total: number;
  /** the position of this page's first row of the rule among them (0: it starts on this page) */
  offset: number;
  rows: HealthRow<M>[];
}

export interface HealthPage<M = unknown> {
  groups: RuleGroup<M>[];
  /** rows the filters keep, every page */
  total: number;
  page: number;
  pageCount: number;
  /** first and last row of this page, 1-based (0 and 0 when empty) */
  from: number;
  to: number;
  /** rows kept per rule, every page: what the rule filter's options count */
  byRule: Map<string, number>;
  /** rows kept per severity, the severity filter aside: what its chips count */
  bySeverity: Record<Severity, number>;
}

/**
 * One page of the kept rows, grouped by rule in order; each group knows its rule's total and where
 * this page starts in it (a rule may run over several pages).
 */
export function healthPage<M>(rows: readonly HealthRow<M>[], filters: HealthFilters, pageSize = HEALTH_PAGE_SIZE): HealthPage<M> {
  const bySeverity: Record<Severity, number> = { error: 0, warning: 0, notice: 0 };
  for (const row of filterHealthRows(rows, { ...filters, severity: null })) bySeverity[row.finding.severity]++;
  const kept = filterHealthRows(rows, filters);
  const byRule = new Map<string, number>();
  const firstOfRule = new Map<string, number>();
  kept.forEach((row, index) => {
    byRule.set(row.finding.ruleId, (byRule.get(row.finding.ruleId) ?? 0) + 1);
    if (!firstOfRule.has(row.finding.ruleId)) firstOfRule.set(row.finding.ruleId, index);
  });
  const pageCount = Math.max(1, Math.ceil(kept.length / pageSize));
  const page = Math.min(filters.page, pageCount);
  const start = (page - 1) * pageSize;
  const slice = kept.slice(start, start + pageSize);
  const groups: RuleGroup<M>[] = [];
  slice.forEach((row, index) => {
    const last = groups[groups.length - 1];
    if (last && last.ruleId === row.finding.ruleId) last.rows.push(row);
    else
      groups.push({
        ruleId: row.finding.ruleId,
        severity: row.finding.severity,
        total: byRule.get(row.finding.ruleId)!,
        offset: start + index - firstOfRule.get(row.finding.ruleId)!,
        rows: [row],
      });
  });
  return { groups, total: kept.length, page, pageCount, from: slice.length ? start + 1 : 0, to: start + slice.length, byRule, bySeverity };
}

/** Unmuted findings per group: a finding counts for each group it names, itself or through one of its webhooks. */
export function findingsByGroup(
  findings: readonly { severity: "error" | "warning" | "notice"; subjects: readonly { kind: string; id: number; groupId?: number }[] }[],
  groupIds?: ReadonlySet<number>,
): Map<number, { errors: number; warnings: number; notices: number }> {
  const byGroup = new Map<number, { errors: number; warnings: number; notices: number }>();
  for (const finding of findings) {
    const groups = new Set<number>();
    for (const subject of finding.subjects) {
      const id = subject.kind === "group" ? subject.id : subject.kind === "webhook" ? subject.groupId : undefined;
      if (id !== undefined && (!groupIds || groupIds.has(id))) groups.add(id);
    }
    for (const id of groups) {
      const counts = byGroup.get(id) ?? { errors: 0, warnings: 0, notices: 0 };
      if (finding.severity === "error") counts.errors++;
      else if (finding.severity === "warning") counts.warnings++;
      else counts.notices++;
      byGroup.set(id, counts);
    }
  }
  return byGroup;
}
