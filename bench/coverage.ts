/**
 * `npm run bench:coverage [-- --runs 15]`: the cost of one refresh of the health and coverage pages
 * for a large account, beside a floor.
 *
 * The account (5,000 groups, about 20,000 webhooks, 2,000 events) comes from the sandbox's own
 * generators (deterministic for the seed, planted faults included), so the numbers are those of
 * data shaped like the demo's. Each case runs once to warm up, then the cases run in turns, round
 * after round, so that every case sees the same background load on this shared machine; the table
 * shows the median and p95 of the rounds and the ratio to the floor: one plain pass that builds a
 * Map from event id to webhooks over the same data, the least any per-event view must do.
 *
 * Below the table: the listing calls and credits one refresh needs for that account and for the
 * demo account (docs/ems-api.md §4.3, §5: at most 200 per page, 10 credits a listing).
 */
import { parseArgs } from "node:util";
import type { Webhook } from "@/lib/ems";
import { computeCoverage, coverageForEvent } from "@/lib/coverage/compute";
import { runHealthChecks } from "@/lib/health/rules";
import type { SetupData, TriggerKey } from "@/lib/setup/setup-data";
import { DEFAULT_ACCOUNTS } from "@/lib/sandbox/core/config";
import { datasetFor } from "@/lib/sandbox/data/datasets";

const { values: flags } = parseArgs({ options: { runs: { type: "string", default: "15" } } });
const RUNS = Math.max(3, Number(flags.runs));

const LARGE_ACCOUNT = { groups: 5_000, events: 2_000, seed: 5150 };
const DEMO_ACCOUNT = DEFAULT_ACCOUNTS[0];
/** A fixed clock inside the generated events' span (2024-2026), so that some are live and some over. */
const NOW = new Date("2025-06-15T12:00:00Z");
const REQUIRED: readonly TriggerKey[] = ["registrant:insert", "registrant:update", "registrant:delete"];
const PER_PAGE = 200;
const CREDITS_PER_LISTING = 10;
const CREDITS_PER_WINDOW = 2_000;

/** The account as one refresh lists it: groups with expand=webhooks, and every event. */
function setupOf(account: { groups: number; events: number; seed: number }): SetupData {
  const dataset = datasetFor(account);
  return {
    groups: Array.from({ length: dataset.groups.size }, (_, index) => ({ ...dataset.groups.row(index), webhooks: dataset.webhooksOf(index) })),
    events: Array.from({ length: dataset.events.size }, (_, index) => dataset.events.row(index)),
  };
}

const webhookCount = (data: SetupData) => data.groups.reduce((sum, group) => sum + (group.webhooks?.length ?? 0), 0);

/** The floor: one pass from event id to its webhooks (catch-all ones under one key), nothing judged. */
function floorPass(data: SetupData): number {
  const byEvent = new Map<number, Webhook[]>();
  const anyEvent: Webhook[] = [];
  for (const group of data.groups) {
    for (const hook of group.webhooks ?? []) {
      if (hook.any_event) {
        anyEvent.push(hook);
        continue;
      }
      for (const eventId of hook.event_ids ?? []) {
        const list = byEvent.get(eventId);
        if (list) list.push(hook);
        else byEvent.set(eventId, [hook]);
      }
    }
  }
  return byEvent.size + anyEvent.length;
}

type Case = { name: string; run: (data: SetupData) => unknown };

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Runs every case once (warm-up), then RUNS rounds of every case in turn; times per case, sorted. */
function measure(cases: readonly Case[], data: SetupData): Map<string, number[]> {
  for (const { run } of cases) run(data);
  const times = new Map(cases.map(({ name }) => [name, [] as number[]]));
  let sink = 0;
  for (let round = 0; round < RUNS; round++) {
    for (const { name, run } of cases) {
      const started = performance.now();
      const result = run(data);
      times.get(name)!.push(performance.now() - started);
      // Keep the result alive so that no pass is optimized away.
      sink += result ? 1 : 0;
    }
  }
  if (sink < 0) console.log(sink);
  for (const list of times.values()) list.sort((a, b) => a - b);
  return times;
}

function printTable(header: readonly string[], rows: readonly string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((width, i) => (i === 0 ? `:${"-".repeat(width + 1)}` : `${"-".repeat(width + 1)}:`)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}

/** Listing calls and credits of one refresh, two ways: groups with their webhooks, or webhooks listed on their own. */
function refreshCostRow(label: string, groups: number, webhooks: number, events: number): string[] {
  const pages = (count: number) => Math.max(1, Math.ceil(count / PER_PAGE));
  const expanded = pages(groups) + pages(events);
  const separate = pages(groups) + pages(webhooks) + pages(events);
  const credits = (calls: number) => `${calls * CREDITS_PER_LISTING} (${((calls * CREDITS_PER_LISTING * 100) / CREDITS_PER_WINDOW).toFixed(1)} %)`;
  return [
    label,
    `${groups.toLocaleString("en")} / ${webhooks.toLocaleString("en")} / ${events.toLocaleString("en")}`,
    `${pages(groups)} + ${pages(events)} = ${expanded}`,
    credits(expanded),
    `${pages(groups)} + ${pages(webhooks)} + ${pages(events)} = ${separate}`,
    credits(separate),
  ];
}

function main(): void {
  const built = performance.now();
  const data = setupOf(LARGE_ACCOUNT);
  const webhooks = webhookCount(data);
  const anyEvent = data.groups.reduce((sum, group) => sum + (group.webhooks ?? []).filter((hook) => hook.any_event).length, 0);
  console.log(
    `bench:coverage: ${data.groups.length.toLocaleString("en")} groups, ${webhooks.toLocaleString("en")} webhooks (${anyEvent} catch-all), ` +
      `${data.events.length.toLocaleString("en")} events (sandbox generators, seed ${LARGE_ACCOUNT.seed}, built in ${(performance.now() - built).toFixed(0)} ms); ` +
      `now ${NOW.toISOString().slice(0, 10)}, ${RUNS} rounds after a warm-up, node ${process.version}\n`,
  );

  const middleEvent = data.events[Math.floor(data.events.length / 2)].id;
  const cases: Case[] = [
    { name: "floor: Map event id -> webhooks", run: floorPass },
    { name: "computeCoverage (open events)", run: (input) => computeCoverage(input, { now: NOW, requiredTriggers: REQUIRED }) },
    { name: "computeCoverage (all events)", run: (input) => computeCoverage(input, { now: NOW, statuses: "all", requiredTriggers: REQUIRED }) },
    { name: "coverageForEvent (one event)", run: (input) => coverageForEvent(input, middleEvent, { now: NOW, requiredTriggers: REQUIRED }) },
    { name: "runHealthChecks (9 rules)", run: (input) => runHealthChecks(input, { now: NOW, requiredTriggers: REQUIRED }) },
  ];
  const times = measure(cases, data);
  const floorMedian = percentile(times.get(cases[0].name)!, 50);
  printTable(
    ["case", "median ms", "p95 ms", "x floor"],
    cases.map(({ name }) => {
      const sorted = times.get(name)!;
      const median = percentile(sorted, 50);
      return [name, median.toFixed(2), percentile(sorted, 95).toFixed(2), (median / floorMedian).toFixed(1)];
    }),
  );

  const coverage = computeCoverage(data, { now: NOW, statuses: "all", requiredTriggers: REQUIRED });
  const findings = runHealthChecks(data, { now: NOW, requiredTriggers: REQUIRED });
  console.log(`\n${coverage.events.length} events × ${coverage.triggers.length} trigger columns; ${findings.length.toLocaleString("en")} findings.\n`);

  const demo = setupOf(DEMO_ACCOUNT);
  console.log(
    `One refresh: listing calls at per-page=${PER_PAGE}, ${CREDITS_PER_LISTING} credits each (share of the ${CREDITS_PER_WINDOW.toLocaleString("en")}-credit, 10-minute window)\n`,
  );
  printTable(
    ["account", "groups / webhooks / events", "calls: groups?expand=webhooks + events", "credits", "calls: groups + /webhooks + events", "credits"],
    [
      refreshCostRow(`large (${LARGE_ACCOUNT.groups.toLocaleString("en")} groups)`, data.groups.length, webhooks, data.events.length),
      refreshCostRow("demo", demo.groups.length, webhookCount(demo), demo.events.length),
    ],
  );
}

main();
