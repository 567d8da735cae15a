/**
 * `npm run bench:budget [-- --scale 10] [--members 10] [--groups 4000] [--think 12]`
 *
 * A team on one API key: 10 simulated members sharing one credential browse realistic paths for 10
 * simulated minutes against the sandbox with its real limit (2,000 credits per 10-minute window, a
 * listing 10), plus one export of all groups started at minute 1. Printed as a table, one row per
 * configuration, the same members on the same paths (seeded):
 *
 *   1. today's portal, as it was before shared answers and the budget plan (aee6e8a~1), made from
 *      today's code so: EMS_SHARED_ANSWER_SECONDS=0 (sharing off: every page view asks the API);
 *      EMS_BACKGROUND_RESERVE_PERCENT=10, the 10 % of each window the old export kept for page views
 *      (aee6e8a~1 lib/ems/client.ts, PAGES_RESERVE_SHARE and pace(): the same rule as the budget
 *      plan's reserve, at 10 % instead of 30 %); and a group's page as the old page read it, a
 *      10-credit listing of that one group by `ids` (oldGroupPageState, bench/budget-views.ts) with
 *      no call for its events' names. Lists and the export are today's functions with those settings.
 *   2. shared answers (30 s; a listing page read as its block of 200 rows, so neighbouring pages
 *      share a call; a group's page's one-record read shared 60 s, as long as the event names beside
 *      it) and the budget plan (30 % of each window kept for page views), a group's page as today's
 *      page reads it.
 *
 * What is driven: the portal's own data functions, server-side, as a page render calls them
 * (resolveListing's saved-views query with the credential load beside it, then `loadListing`; a group's
 * page is `loadGroupPage`, then `loadGroupEventNames` for the events its webhooks name, as
 * app/(portal)/webhook-groups/[id]/page.tsx does; the export is `startExport`, read to its end). Not a
 * Next build: rendering and HTTP are not what spends the budget, and they are measured by bench:pages.
 *
 * A page view counts as rate-limited when one of its loads showed a 429, and as stale when one was
 * served an earlier answer because of a 429 (the group page's two loads: the worse counts). The
 * target "no page view rate-limited" is met only when neither happened.
 * Each member is a separate signed-in person with the same key saved (own encrypted row, same
 * fingerprint), in one team. Everything runs in this process against a real PostgreSQL and the
 * sandbox over real HTTP on 127.0.0.1.
 *
 * Time scale (--scale, default 10): every duration is divided by it, on both sides: the sandbox's
 * rate-limit window (its own `rate-limit` control: 2,000 credits per 600/scale s), the sharing window
 * (30/scale s), the members' think times, and the run (600/scale s). The limit in credits is the real
 * one. Durations are printed in simulated seconds. `--scale 1` runs the real 10 minutes.
 *
 * Database: DATABASE_URL when set (migrated), else a throw-away embedded PostgreSQL, migrated here.
 * Run with the react-server condition (npm run bench:budget does).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Actor } from "@/lib/access/actor";
import type { LoadResult } from "./budget-views";
import { openBenchEnvironment } from "./database";
import { benchFlags } from "./flags";
import { benchMember } from "./people";

const flags = benchFlags("npm run bench:budget -- [--scale 10] [--members 10] [--groups 4000] [--think 12 (mean seconds between a member's page views)] [--seed 15]", {
  scale: "10",
  members: "10",
  groups: "4000",
  think: "12",
  seed: "15",
});
const SCALE = Number(flags.scale);
if (![1, 2, 3, 5, 6, 10, 15, 30].includes(SCALE)) throw new Error("--scale must divide 30 (1, 2, 3, 5, 6, 10, 15 or 30): the sharing window is whole seconds");
const MEMBERS = Number(flags.members);
const GROUPS = Number(flags.groups);
const THINK_SECONDS = Number(flags.think);
const SIMULATED_SECONDS = 600;
const EXPORT_AT_SECONDS = 60;

/** A small seeded PRNG (mulberry32): the same paths for every configuration. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Step = { kind: "list"; resource: "webhook-groups" | "events"; search: string } | { kind: "group"; rank: number };

/**
 * What a member opens next. Most views are the team's landing list and its shared views; then
 * paging, a sort, the events list, and a group's page (popular groups more often: Zipf over the
 * 20 rows of the first page).
 */
function nextStep(random: () => number): Step {
  const r = random();
  if (r < 0.34) return { kind: "list", resource: "webhook-groups", search: "" };
  if (r < 0.44) return { kind: "list", resource: "webhook-groups", search: "filter=name%3D*contains*sync" };
  if (r < 0.52) return { kind: "list", resource: "webhook-groups", search: "sort=-id" };
  if (r < 0.6) return { kind: "list", resource: "webhook-groups", search: random() < 0.75 ? "page=2" : "page=3" };
  if (r < 0.64) return { kind: "list", resource: "webhook-groups", search: random() < 0.5 ? "sort=name" : "filter=name%3D*contains*crm" };
  if (r < 0.74) return { kind: "list", resource: "events", search: random() < 0.8 ? "" : "sort=-start_date" };
  // Zipf (s = 1.3) over ranks 1..20.
  const weights = Array.from({ length: 20 }, (_, i) => 1 / (i + 1) ** 1.3);
  let pick = random() * weights.reduce((sum, w) => sum + w, 0);
  let rank = 0;
  while (rank < 19 && (pick -= weights[rank]) > 0) rank++;
  return { kind: "group", rank };
}

interface Row {
  name: string;
  pageViews: number;
  apiCalls: number;
  credits: number;
  rateLimited: number;
  stale: number;
  otherFailures: number;
  exportRows: number;
  exportSeconds: number | null;
  exportOutcome: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const { url: databaseUrl, stop: stopDatabase } = await openBenchEnvironment();
  process.env.LOG_LEVEL = "silent";
  process.env.DATABASE_POOL_MAX ||= "10";

  const { startSandboxServer, DEMO_CREDENTIALS } = await import("@/lib/sandbox/testing");
  const { prisma } = await import("@/lib/db/prisma");
  const { getEmsClientForActor } = await import("@/lib/ems-access/credential");
  const { createView } = await import("@/lib/views/views");
  const { flushEmsState, forgetCredential, reloadEmsConfig } = await import("@/lib/ems");
  const { listViews } = await import("@/lib/views/views");
  const { loadListing } = await import("@/lib/listing/load");
  const { loadGroupEventNames, loadGroupPage } = await import("@/lib/listing/group");
  const { oldGroupPageState, targetsLine, viewResult } = await import("./budget-views");
  const { parseListingSearchParams } = await import("@/lib/listing/search-params");
  const { startExport } = await import("@/lib/listing/export");
  const { collectExport } = await import("@/lib/listing/export-events");

  const sandbox = await startSandboxServer({
    accounts: [{ key: DEMO_CREDENTIALS.consumerKey, secret: DEMO_CREDENTIALS.consumerSecret, groups: GROUPS, events: 120, seed: 20261123 }],
  });
  process.env.EMS_ALLOW_PRIVATE_ORIGINS = new URL(sandbox.baseUrl).origin;
  const toReal = (simulatedSeconds: number) => (simulatedSeconds * 1000) / SCALE;

  console.log(
    `Budget benchmark: ${MEMBERS} members on one key, ${SIMULATED_SECONDS / 60} simulated minutes at scale ${SCALE} ` +
      `(${SIMULATED_SECONDS / SCALE} s real), a page view every ${THINK_SECONDS} s per member on average, ${GROUPS} groups, ` +
      `sandbox limit 2,000 credits per ${600 / SCALE} s real (= 10 simulated minutes). Database ${new URL(databaseUrl).host}.`,
  );

  /** `groupPage`: how a group's page reads its group ("old": one listing by ids, before aee6e8a). */
  async function runConfiguration(name: string, env: Record<string, string>, groupPage: "old" | "today"): Promise<Row> {
    for (const [key, value] of Object.entries(env)) process.env[key] = value;
    reloadEmsConfig();
    await sandbox.admin.reset();
    await sandbox.admin.setRateLimit({ credits: 2000, windowSeconds: 600 / SCALE });

    // A team of members, each with the same key saved (their own encrypted row), and two team views.
    const stamp = randomBytes(4).toString("hex");
    const team = await prisma.team.create({ data: { name: `Bench ${name} ${stamp}` } });
    const actors: Actor[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const role = i === 0 ? "OWNER" : "MEMBER";
      const actor = await benchMember(team, { email: `bench-${stamp}-${i}@example.test`, name: `Member ${i}`, role }, { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS });
      actors.push(actor);
    }
    await createView(actors[0], { page: "webhook-groups", name: "Sync groups", query: "filter=name%3D*contains*sync", scope: "TEAM" });
    await createView(actors[0], { page: "webhook-groups", name: "Newest first", query: "sort=-id", scope: "TEAM" });
    const fingerprint = (await prisma.apiCredential.findUniqueOrThrow({ where: { userId: actors[0].userId } })).fingerprint;
    await forgetCredential(fingerprint);
    // Each member has looked at the landing list before (the first page's rows pick the group pages).
    const firstPageIds: number[] = [];

    const row: Row = {
      name,
      pageViews: 0,
      apiCalls: 0,
      credits: 0,
      rateLimited: 0,
      stale: 0,
      otherFailures: 0,
      exportRows: 0,
      exportSeconds: null,
      exportOutcome: "not started",
    };
    const started = Date.now();
    const endsAt = started + toReal(SIMULATED_SECONDS);

    async function pageView(actor: Actor, step: Step): Promise<void> {
      let outcome;
      const loads: LoadResult[] = [];
      if (step.kind === "group" && groupPage === "old") {
        outcome = await loadListing(actor, oldGroupPageState(firstPageIds[step.rank] ?? 1));
      } else if (step.kind === "group") {
        outcome = await loadGroupPage(actor, firstPageIds[step.rank] ?? 1);
        // The page streams the names in after the group; a view waits for both here to count them.
        const eventNames = outcome.kind === "ok" && outcome.item ? loadGroupEventNames(actor, outcome.item) : null;
        if (eventNames) loads.push((await eventNames).outcome);
      } else {
        const state = parseListingSearchParams(step.resource, new URLSearchParams(step.search));
        // What the page does (resolveListing, whose redirects need Next's runtime): the credential
        // load started beside the saved-views query, then the listing.
        const emsClient = getEmsClientForActor(actor);
        void emsClient.catch(() => undefined);
        await listViews(actor, step.resource);
        outcome = await loadListing(actor, state, emsClient);
        if (outcome.kind === "ok" && step.resource === "webhook-groups" && step.search === "" && firstPageIds.length === 0) {
          firstPageIds.push(...outcome.items.map((item) => Number(item.id)));
        }
      }
      loads.push(outcome);
      row.pageViews++;
      const result = viewResult(loads);
      if (result === "rate-limited") row.rateLimited++;
      else if (result === "stale") row.stale++;
      else if (result === "failed") row.otherFailures++;
    }

    async function member(index: number): Promise<void> {
      const random = rng(Number(flags.seed) * 1000 + index);
      const actor = actors[index];
      // Members arrive over the first simulated minute.
      await sleep(toReal(random() * 60));
      await pageView(actor, { kind: "list", resource: "webhook-groups", search: "" });
      while (Date.now() < endsAt) {
        await sleep(toReal(-Math.log(1 - random()) * THINK_SECONDS));
        if (Date.now() >= endsAt) break;
        await pageView(actor, nextStep(random));
      }
    }

    async function exportAllGroups(): Promise<void> {
      await sleep(toReal(EXPORT_AT_SECONDS));
      const client = await getEmsClientForActor(actors[0]);
      const exportStarted = Date.now();
      row.exportOutcome = "running";
      try {
        const { stream } = await startExport(client!, parseListingSearchParams("webhook-groups", new URLSearchParams("")), "csv", {
          maxRows: 1_000_000,
          maxSeconds: 3_600,
          filename: "bench.csv",
          includeHeaderValues: false,
          teamId: team.id,
          heartbeatMs: 60_000,
        });
        const result = await collectExport(stream);
        row.exportRows = result.file.split("\n").filter(Boolean).length - 1;
        row.exportOutcome = row.exportRows >= GROUPS ? "finished" : "incomplete";
      } catch (error) {
        row.exportOutcome = `failed: ${error instanceof Error ? error.message : String(error)}`;
      }
      row.exportSeconds = ((Date.now() - exportStarted) / 1000) * SCALE;
    }

    await Promise.all([...actors.map((_, i) => member(i)), exportAllGroups()]);
    await flushEmsState();
    const stats = await sandbox.admin.stats();
    row.apiCalls = stats.apiRequests;
    // Credits: listings (10 each) and token requests (1 each); 429s cost nothing (the sandbox's rule).
    const usage = await prisma.emsBudgetUsage.aggregate({ where: { teamId: team.id }, _sum: { credits: true } });
    row.credits = (usage._sum.credits ?? 0) + stats.tokenRequests;
    return row;
  }

  const rows: Row[] = [];
  try {
    rows.push(
      await runConfiguration("today: no sharing, 10 % reserve, group by listing", { EMS_SHARED_ANSWER_SECONDS: "0", EMS_BACKGROUND_RESERVE_PERCENT: "10" }, "old"),
    );
    rows.push(
      await runConfiguration(
        "shared answers 30 s, 30 % reserve",
        { EMS_SHARED_ANSWER_SECONDS: String(30 / SCALE), EMS_COVERAGE_CACHE_SECONDS: String(60 / SCALE), EMS_BACKGROUND_RESERVE_PERCENT: "30" },
        "today",
      ),
    );
  } finally {
    await sandbox.close();
    await prisma.$disconnect();
    await stopDatabase();
  }

  const header = [
    "configuration",
    "page views",
    "API calls",
    "calls/view",
    "credits",
    "429 seen by a view",
    "stale after a 429",
    "other failures",
    "export rows",
    "export (sim. s)",
  ];
  const lines = rows.map((row) => [
    row.name,
    String(row.pageViews),
    String(row.apiCalls),
    (row.apiCalls / Math.max(1, row.pageViews)).toFixed(2),
    String(row.credits),
    String(row.rateLimited),
    String(row.stale),
    String(row.otherFailures),
    `${row.exportRows} (${row.exportOutcome})`,
    row.exportSeconds === null ? "-" : row.exportSeconds.toFixed(0),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const format = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(" | ")} |`;
  console.log("");
  console.log(format(header));
  console.log(`|${widths.map((width, i) => (i === 0 ? "-".repeat(width + 2) : `${"-".repeat(width + 1)}:`)).join("|")}|`);
  for (const line of lines) console.log(format(line));
  const shared = rows[1];
  console.log("");
  console.log(`Targets (shared answers row): ${targetsLine(shared)}`);
  fs.mkdirSync(path.join(import.meta.dirname, "results"), { recursive: true });
  fs.writeFileSync(
    path.join(import.meta.dirname, "results", "budget.json"),
    `${JSON.stringify({ scale: SCALE, members: MEMBERS, groups: GROUPS, thinkSeconds: THINK_SECONDS, rows }, null, 2)}\n`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
