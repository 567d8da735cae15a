/**
 * `npm run bench:plans [-- --webhooks 1000] [--groups 600] [--scale 30]`
 *
 * A bulk plan over 1,000 webhooks (issue 27 §3), from drafting to applied, against the sandbox over
 * real HTTP and a real PostgreSQL, beside its floor measured in the same run: 1,000 bare API calls
 * (GET /webhooks/{id}, one after another, with a token, no portal code in between).
 *
 * Rows:
 *   - floor: 1,000 bare calls, unlimited budget;
 *   - drafting: `draftPlan` of one bulk edit (a header value set on every selected webhook): reads the
 *     account's setup (the Health read) and stores 1,000 encrypted steps;
 *   - impact: `planImpact` alone (health checks and coverage before and after, pure), and the plan
 *     page's data function (`loadPlanPage`: decrypt, diff 100 operations, impact, cost);
 *   - apply: `runDuePlans` at the real budget, 2,000 credits per 10-minute window with the 30 % kept
 *     for page views, on a simulated clock: the sandbox's window is 600/scale seconds real, and
 *     durations are printed in simulated seconds too (× scale).
 *
 * Database: DATABASE_URL when set (migrated), else a throw-away embedded PostgreSQL. Run with the
 * react-server condition (npm run bench:plans does).
 */
import { randomBytes } from "node:crypto";
import type { Actor } from "@/lib/access/actor";
import { openBenchEnvironment } from "./database";
import { benchFlags } from "./flags";
import { benchMember } from "./people";

const flags = benchFlags("npm run bench:plans -- [--webhooks 1000] [--groups 600] [--scale 30 (the rate-limit window is 600/scale s real)]", {
  webhooks: "1000",
  groups: "600",
  scale: "30",
});
const WEBHOOKS = Number(flags.webhooks);
const GROUPS = Number(flags.groups);
const SCALE = Number(flags.scale);

async function main(): Promise<void> {
  const { stop: stopDatabase } = await openBenchEnvironment();
  process.env.LOG_LEVEL = "silent";

  const { startSandboxServer, DEMO_CREDENTIALS } = await import("@/lib/sandbox/testing");
  const { basicAuthorizationHeader } = await import("@/lib/sandbox/core/basic-credentials");
  const { prisma } = await import("@/lib/db/prisma");
  const { flushEmsState, forgetCredential } = await import("@/lib/ems");
  const { loadSetup } = await import("@/lib/setup/load");
  const { draftPlan } = await import("@/lib/plans/draft");
  const { planImpact } = await import("@/lib/plans/impact");
  const { readSteps } = await import("@/lib/plans/store");
  const { loadPlanPage } = await import("@/lib/plans/page");
  const { approvePlan, submitPlan } = await import("@/lib/plans/review");
  const { startApply } = await import("@/lib/plans/apply");
  const { runDuePlans } = await import("@/lib/plans/run");
  const { creditsOf } = await import("@/lib/plans/cost");

  const sandbox = await startSandboxServer({
    accounts: [{ key: DEMO_CREDENTIALS.consumerKey, secret: DEMO_CREDENTIALS.consumerSecret, groups: GROUPS, events: 120, seed: 20261126 }],
  });
  process.env.EMS_ALLOW_PRIVATE_ORIGINS = new URL(sandbox.baseUrl).origin;
  await sandbox.admin.setRateLimit({ credits: 1_000_000, windowSeconds: 600 });

  // A team of an owner and an admin, both with the key saved.
  const stamp = randomBytes(4).toString("hex");
  const team = await prisma.team.create({ data: { name: `Bench plans ${stamp}` } });
  const people: Actor[] = [];
  for (const role of ["OWNER", "ADMIN"] as const) {
    const actor = await benchMember(
      team,
      { email: `plans-${stamp}-${role}@example.test`, name: role, role },
      { baseUrl: sandbox.baseUrl, ...DEMO_CREDENTIALS },
      { check: false },
    );
    people.push(actor);
  }
  const [owner, admin] = people;

  // The selection: the first WEBHOOKS webhooks of the account's setup.
  const setup = await loadSetup(owner);
  if (setup.kind !== "ok") throw new Error(`setup: ${setup.kind}`);
  const ids = setup.snapshot.data.groups.flatMap((group) => (group.webhooks ?? []).map((hook) => hook.id)).slice(0, WEBHOOKS);
  if (ids.length < WEBHOOKS) throw new Error(`the account has ${ids.length} webhooks; ask for more --groups`);

  const rows: Record<string, string>[] = [];
  const seconds = (ms: number) => (ms / 1000).toFixed(2);

  // The floor: the same number of bare calls, one after another.
  const tokenResponse = await fetch(`${sandbox.baseUrl}/api/v1/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: basicAuthorizationHeader(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret),
      "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
    },
    body: "grant_type=client_credentials",
  });
  const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
  let started = performance.now();
  for (const id of ids) {
    const response = await fetch(`${sandbox.baseUrl}/api/v1/webhooks/${id}`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
  }
  const floorMs = performance.now() - started;
  rows.push({
    step: `floor: ${ids.length} bare API calls`,
    "real s": seconds(floorMs),
    "simulated s": "-",
    calls: String(ids.length),
    credits: String(ids.length),
    "× floor": "1.00",
  });

  // Drafting.
  started = performance.now();
  const { planId, operations } = await draftPlan(owner, {
    title: "Rotate the bench key",
    edits: [{ kind: "webhooks.bulk", ids, edit: { kind: "set-header", key: "X-Bench-Key", value: `k-${stamp}` } }],
  });
  const draftMs = performance.now() - started;
  rows.push({
    step: `drafting (${operations} operations)`,
    "real s": seconds(draftMs),
    "simulated s": "-",
    calls: "-",
    credits: "-",
    "× floor": (draftMs / floorMs).toFixed(2),
  });

  // Impact, pure, and the plan page's data.
  const steps = await readSteps(planId);
  started = performance.now();
  const impact = planImpact(
    setup.snapshot.data,
    steps.map((step) => step.operation),
    { now: new Date(), requiredTriggers: [] },
  );
  const impactMs = performance.now() - started;
  rows.push({
    step: "impact (health and coverage before/after)",
    "real s": seconds(impactMs),
    "simulated s": "-",
    calls: "0",
    credits: "0",
    "× floor": (impactMs / floorMs).toFixed(2),
  });
  started = performance.now();
  await loadPlanPage(owner, planId);
  const pageMs = performance.now() - started;
  rows.push({
    step: "plan page data (first 100 operations)",
    "real s": seconds(pageMs),
    "simulated s": "-",
    calls: "-",
    credits: "-",
    "× floor": (pageMs / floorMs).toFixed(2),
  });

  // Apply at the real budget on a simulated clock.
  await sandbox.admin.setRateLimit({ credits: 2000, windowSeconds: 600 / SCALE });
  await forgetCredential((await prisma.apiCredential.findUniqueOrThrow({ where: { userId: owner.userId } })).fingerprint);
  await submitPlan(owner, planId);
  await approvePlan(admin, planId);
  await startApply(admin, planId);
  const callsBefore = (await sandbox.admin.stats()).apiRequests;
  started = performance.now();
  await runDuePlans();
  const applyMs = performance.now() - started;
  const calls = (await sandbox.admin.stats()).apiRequests - callsBefore;
  const plan = await prisma.changePlan.findUniqueOrThrow({ where: { id: planId }, select: { status: true } });
  rows.push({
    step: `apply at 2,000 credits / 10 min (${plan.status})`,
    "real s": seconds(applyMs),
    "simulated s": ((applyMs / 1000) * SCALE).toFixed(0),
    calls: String(calls),
    credits: String(creditsOf(steps.map((step) => step.operation))),
    "× floor": (applyMs / floorMs).toFixed(2),
  });

  console.log(
    `\nPlans benchmark: a bulk plan over ${ids.length} webhooks of a ${GROUPS}-group account; the rate-limit window is ${600 / SCALE} s real (10 simulated minutes).`,
  );
  console.table(rows);
  console.log(
    `Impact: ${impact.summary.join(" ")} Target: drafting and impact each well under the floor's time; apply bounded by the budget (2 credits an operation, 1,400 a window after the page views' reserve), not by the portal.`,
  );

  await flushEmsState();
  await sandbox.close();
  await prisma.$disconnect();
  await stopDatabase();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
