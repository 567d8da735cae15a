import { describe, expect, it } from "vitest";
import { applyMutes, findingDigest, WHOLE_RULE, type HealthMuteRecord } from "@/lib/health/mutes";
import { runHealthChecks } from "@/lib/health/rules";
import { activeFilters, filterHealthRows, healthHref, healthPage, healthRows, parseHealthParams, webhookHosts, type HealthFilters } from "@/lib/health/list";
import { group, NOW, setup, standardEvents, webhook } from "./builders";

// The Health page's list model: URL filters, grouping by rule, paging. Pure, over a small account
// whose findings are known: plain-HTTP webhooks (errors), a disabled webhook for a live event and
// an uncovered group without emails (warnings).
function account() {
  const insecure = Array.from({ length: 7 }, (_, index) => webhook({ id: 100 + index, url: `http://plain-${index % 2}.example.org/in/${index}`, event_ids: [1] }));
  const data = setup([
    group({ id: 10, name: "Plain", webhooks: insecure.slice(0, 4) }),
    group({ id: 20, name: "Also plain", webhooks: insecure.slice(4) }),
    group({ id: 30, name: "Quiet", notification_emails: [], webhooks: [webhook({ id: 300, enabled: false, event_ids: [1] }), webhook({ id: 301, event_ids: [1] })] }),
  ]);
  return { data, findings: runHealthChecks(data, { now: NOW, requiredTriggers: [] }) };
}

const mute = (ruleId: string, key: string): HealthMuteRecord => ({
  id: `m-${key}`,
  ruleId,
  findingKey: findingDigest(key),
  reason: "known",
  createdByEmail: "a@example.com",
  createdAt: NOW,
});

function rowsOf(mutes: HealthMuteRecord[] = []) {
  const { data, findings } = account();
  const split = applyMutes(findings, mutes);
  return healthRows(split.active, split.muted, webhookHosts(data));
}

const filters = (query: Record<string, string> = {}): HealthFilters => parseHealthParams(query);

describe("the Health page's URL filters", () => {
  it("reads every filter and writes back a URL that reproduces them (defaults left out)", () => {
    const state = filters({ q: " plain ", severity: "error", rule: "plain-http-url", group: "10", event: "1", host: "Plain-0", muted: "all", page: "2" });
    expect(state).toMatchObject({ q: "plain", severity: "error", rule: "plain-http-url", group: 10, event: 1, host: "plain-0", muted: "all", page: 2, notices: [] });
    expect(healthHref(state, { page: 2 })).toBe("/health?q=plain&severity=error&rule=plain-http-url&group=10&event=1&host=plain-0&muted=all&page=2");
    expect(parseHealthParams(new URL(`http://x${healthHref(state, { page: 2 })}`).searchParams)).toEqual(state);
    // A filter change goes back to the first page.
    expect(healthHref(state, { severity: null })).not.toContain("page=");
    expect(healthHref(filters())).toBe("/health");
    expect(activeFilters(state)).toEqual(["q", "severity", "rule", "group", "event", "host", "muted"]);
  });

  it("turns each hostile value into a notice and no filter, never an exception", () => {
    const state = parseHealthParams({
      severity: "__proto__",
      rule: "constructor",
      group: "-1",
      event: "1e999",
      host: "x".repeat(201),
      muted: "yes",
      q: "y".repeat(500),
      page: "NaN",
    });
    expect(state).toMatchObject({ severity: null, rule: null, group: null, event: null, host: "", muted: "hide", q: "", page: 1 });
    expect(state.notices).toHaveLength(7);
    expect(state.notices[0]).toContain("__proto__");
    // The mangled names Next.js hands a page (?toString=…) are plain parameters or absent.
    expect(parseHealthParams({ toString: ["x"] as unknown as string }).notices).toEqual([]);
  });
});

describe("the Health list", () => {
  it("groups the findings by rule, errors first, with each rule's count", () => {
    const page = healthPage(rowsOf(), filters());
    expect(page.groups.map((group) => [group.ruleId, group.total])).toEqual([
      ["plain-http-url", 7],
      ["disabled-webhook-live-event", 1],
      ["group-without-notification-emails", 1],
    ]);
    expect(page.total).toBe(9);
    expect(page.bySeverity).toEqual({ error: 7, warning: 2, notice: 0 });
  });

  it("filters by severity, rule, group, event, host and words; the severity counts ignore the severity filter", () => {
    const rows = rowsOf();
    const keys = (query: Record<string, string>) => filterHealthRows(rows, filters(query)).map((row) => `${row.finding.ruleId}:${row.finding.key}`);
    expect(keys({ severity: "warning" })).toEqual(["disabled-webhook-live-event:300", "group-without-notification-emails:30"]);
    expect(keys({ group: "20" })).toEqual(["plain-http-url:104", "plain-http-url:105", "plain-http-url:106"]);
    expect(keys({ host: "PLAIN-1" })).toEqual(["plain-http-url:101", "plain-http-url:103", "plain-http-url:105"]);
    expect(keys({ rule: "group-without-notification-emails" })).toEqual(["group-without-notification-emails:30"]);
    expect(keys({ event: "1", q: "disabled" })).toEqual(["disabled-webhook-live-event:300"]);
    expect(keys({ group: "999" })).toEqual([]);
    expect(healthPage(rows, filters({ severity: "warning", group: "20" })).bySeverity).toEqual({ error: 3, warning: 0, notice: 0 });
  });

  it("hides muted findings by default, shows only them or both on demand", () => {
    const rows = rowsOf([mute("plain-http-url", "100"), { ...mute("group-without-notification-emails", ""), findingKey: WHOLE_RULE }]);
    expect(healthPage(rows, filters()).total).toBe(7);
    const only = healthPage(rows, filters({ muted: "only" }));
    expect(only.groups.flatMap((group) => group.rows.map((row) => row.finding.key))).toEqual(["100", "30"]);
    // Both: a rule's muted findings after its shown ones.
    const all = healthPage(rows, filters({ muted: "all", rule: "plain-http-url" }));
    expect(all.groups[0].rows.map((row) => [row.finding.key, row.mute !== null])).toEqual([
      ["101", false],
      ["102", false],
      ["103", false],
      ["104", false],
      ["105", false],
      ["106", false],
      ["100", true],
    ]);
  });

  it("pages the rows: a rule that runs over two pages says where each page starts in it", () => {
    const rows = rowsOf();
    const first = healthPage(rows, filters(), 4);
    expect(first).toMatchObject({ page: 1, pageCount: 3, from: 1, to: 4, total: 9 });
    expect(first.groups.map((group) => [group.ruleId, group.offset, group.rows.length, group.total])).toEqual([["plain-http-url", 0, 4, 7]]);
    const second = healthPage(rows, filters({ page: "2" }), 4);
    expect(second.groups.map((group) => [group.ruleId, group.offset, group.rows.length])).toEqual([
      ["plain-http-url", 4, 3],
      ["disabled-webhook-live-event", 0, 1],
    ]);
    // A page past the end shows the last one.
    expect(healthPage(rows, filters({ page: "99" }), 4)).toMatchObject({ page: 3, from: 9, to: 9 });
  });

  it("keeps a large account's page to one page of rows", () => {
    const groups = Array.from({ length: 600 }, (_, index) => group({ id: 5000 + index, webhooks: [webhook({ url: `http://h${index}.example.org/`, event_ids: [1] })] }));
    const data = setup(groups, standardEvents());
    const split = applyMutes(runHealthChecks(data, { now: NOW, requiredTriggers: [] }), []);
    const page = healthPage(healthRows(split.active, split.muted, webhookHosts(data)), filters());
    expect(page.total).toBe(600);
    expect(page.groups.reduce((sum, group) => sum + group.rows.length, 0)).toBe(50);
  });
});

describe("webhookHosts", () => {
  it("reads each webhook's host, and keeps them while the setup's groups are the same frozen array", () => {
    const { data } = account();
    const hosts = webhookHosts(data);
    expect(hosts.get(100)).toBe("plain-0.example.org");
    expect(hosts.get(101)).toBe("plain-1.example.org");
    // Not frozen (just asked of the API, a test's data): read again, the same hosts.
    expect(webhookHosts(data)).not.toBe(hosts);
    expect(webhookHosts(data)).toEqual(hosts);
    // Frozen, as lib/setup/load.ts gives opened shared answers: read once for every view.
    const frozen = { ...data, groups: Object.freeze([...data.groups]) };
    const kept = webhookHosts(frozen);
    expect(kept).toEqual(hosts);
    expect(webhookHosts({ ...frozen })).toBe(kept);
  });
});
