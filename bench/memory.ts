/**
 * `npm run bench:memory [-- --no-build] [--apply-seconds 60] [--port 0] [--database <url> | --embedded] [--heap-snapshots <dir>] [--gc-log <file>] [--node-flag <v8 flag>]…`
 *
 * Memory bounded whatever the account's size (issue 34 §2): the production server, as `npm start`
 * runs it (its heap cap), driven over HTTP as people drive it, on the large account (5,000 groups,
 * 20,000 webhooks, 2,000 events; bench/portal-stack.ts), with the heap read from --trace-gc.
 *
 * People (bench/pages-seed.ts): Ann (owner) and Abe (admin) of team A, Vic (member of team A) and
 * Bea (owner of team B) on the large account, Dee on the demo account.
 * 1. Drafting: Ann and Bea each filter /webhooks to a host (about 5,000 webhooks), open
 *    "Change these…" (/plans/new with the list's options), choose "Replace host" and post the form
 *    (the real server action, as a browser without JavaScript posts it): two large plans drafted at
 *    once. Meanwhile Vic and Dee view Health, Coverage and the lists, one page after another.
 * 2. Review: Ann sends her plan for review; Abe approves it and applies it ("Apply now").
 * 3. Applying, for --apply-seconds: Ann and Abe keep the plan's page open (its live progress, polled
 *    every 2 s as the page's script does), Vic and Dee go on viewing; then Abe cancels the rest.
 * 4. Undo: Abe drafts the undo of what was applied ("Undo this plan…") and its page is shown.
 *
 * Printed: per phase, the page views (p50/p95), 5xx, 429 ("busy, try again"), the server's peak RSS
 * and peak V8 heap; and the restarts (the bench starts the server again if it dies, as a supervisor
 * would). Targets: peak heap under 200 MB of the 256 MB cap, no 5xx, no restart.
 */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { submitForm, type Submitted } from "./portal-forms";
import { benchSecrets, cleanUp, LARGE_ACCOUNT, NPM, ROOT, startDatabase, startNodeOptions, startPortal, startSandbox } from "./portal-stack";
import { freePort, nextServerRss, waitForHttp, watchHeap, type Service } from "./processes";
import { seedBenchUser, signIn, type BenchUser } from "./pages-seed";

const { values: flags } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    "apply-seconds": { type: "string", default: "60" },
    port: { type: "string", default: "0" },
    database: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    embedded: { type: "boolean", default: false },
    "heap-snapshots": { type: "string" },
    "gc-log": { type: "string" },
    "node-flag": { type: "string", multiple: true },
    help: { type: "boolean", default: false },
  },
});
/** With --heap-snapshots <dir>: the server writes a heap snapshot there at the end of each phase (for Chrome's DevTools). */
const SNAPSHOT_DIR = flags["heap-snapshots"] ? (await import("node:path")).resolve(flags["heap-snapshots"]) : null;
/** --node-flag: the server started with more of node's or V8's flags, for an experiment (what the young generation adds to the peak, say). */
const snapshotFlags = [...(SNAPSHOT_DIR ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${SNAPSHOT_DIR}`] : []), ...(flags["node-flag"] ?? [])];
const APPLY_MS = Number(flags["apply-seconds"]) * 1000;
/**
 * With --gc-log <file>: the server's output (its --trace-gc lines and its JSON log, with each
 * request's path and time) and a line at each phase's start, in one file: which requests were
 * running when the heap peaked.
 */
const GC_LOG = flags["gc-log"] ? (await import("node:path")).resolve(flags["gc-log"]) : null;
async function gcLog(line: string | Buffer): Promise<void> {
  if (GC_LOG) (await import("node:fs")).appendFileSync(GC_LOG, line);
}
const LARGE = { consumerKey: LARGE_ACCOUNT.key, consumerSecret: LARGE_ACCOUNT.secret };
/** The list's options that select about 5,000 webhooks each: one host of the sandbox's four. */
const HOST_FILTER = (host: string) => `filter=${encodeURIComponent(`url=*contains*//${host}/`)}`;

// ---------------------------------------------------------------------------------------------
// What the server answered, per phase

interface Phase {
  name: string;
  started: number;
  views: number[];
  statuses: Map<number, number>;
  firstFailure: string | null;
  peakRss: number;
  peakHeap: number;
  peakLive: number;
  seconds: number;
  note: string;
}

let phase: Phase | null = null;
const phases: Phase[] = [];
let restarts = 0;
/** The running portal's last output (the supervisor replaces the portal when it dies). */
let portalLog: () => string = () => "";
let supervise: NodeJS.Timeout | undefined;
let sampler: NodeJS.Timeout | undefined;

/** The heap as the phase leaves it, written by the server (--heap-snapshots); waits until the file stops growing. */
async function snapshotHeap(pid: number | undefined): Promise<void> {
  if (!SNAPSHOT_DIR || !pid) return;
  const fs = await import("node:fs");
  fs.mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const before = new Set(fs.readdirSync(SNAPSHOT_DIR));
  process.kill(pid, "SIGUSR2");
  let size = -1;
  for (let i = 0; i < 120; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const written = fs.readdirSync(SNAPSHOT_DIR).find((name) => !before.has(name) && name.endsWith(".heapsnapshot"));
    if (!written) continue;
    const now = fs.statSync(`${SNAPSHOT_DIR}/${written}`).size;
    if (now === size && now > 0) {
      console.log(`  heap snapshot: ${SNAPSHOT_DIR}/${written}`);
      return;
    }
    size = now;
  }
}

function beginPhase(name: string, heap: { reset(): void }): Phase {
  console.log(`${new Date().toISOString().slice(11, 19)} ${name}…`);
  void gcLog(`\n==== ${new Date().toISOString()} ${name}\n`);
  heap.reset();
  phase = { name, started: performance.now(), views: [], statuses: new Map(), firstFailure: null, peakRss: 0, peakHeap: 0, peakLive: 0, seconds: 0, note: "" };
  phases.push(phase);
  return phase;
}

function count(status: number, what: string): void {
  if (!phase) return;
  phase.statuses.set(status, (phase.statuses.get(status) ?? 0) + 1);
  if (status >= 500 || status === 0) phase.firstFailure ??= `${what} answered ${status || "nothing (connection failed)"}`;
}

/** One request as a browser makes it; a page view's time is kept for the phase's percentiles. */
async function request(base: string, cookie: string, pathname: string, init: { rsc?: boolean; view?: boolean } = {}): Promise<{ status: number; body: string }> {
  const started = performance.now();
  try {
    const response = await fetch(`${base}${pathname}`, {
      headers: { cookie, ...(init.rsc ? { rsc: "1" } : {}) },
      redirect: "manual",
      signal: AbortSignal.timeout(120_000),
    });
    const body = await response.text();
    count(response.status, pathname);
    if (init.view && response.status === 200) phase?.views.push(performance.now() - started);
    return { status: response.status, body };
  } catch (error) {
    count(0, `${pathname} (${error instanceof Error ? error.message : String(error)})`);
    return { status: 0, body: "" };
  }
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

// ---------------------------------------------------------------------------------------------
// People

/** Someone viewing pages one after another until `until()` says stop. */
async function browse(base: string, cookie: string, paths: string[], until: () => boolean): Promise<void> {
  for (let i = 0; !until(); i++) {
    await request(base, cookie, paths[i % paths.length], { view: true });
  }
}

/** A form's post; a server that died meanwhile answers nothing (status 0, counted), or a page without the form. */
async function post(submit: () => Promise<Submitted>): Promise<Submitted> {
  try {
    return await submit();
  } catch (error) {
    return { status: 0, location: null, body: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A bulk change from the list, as a person makes it: the filtered list, "Change these…", the form
 * posted. Returns the plan's address, or null (the answer is counted; a 'busy' answer is a page).
 */
async function draftFromList(base: string, cookie: string, host: string, to: string): Promise<string | null> {
  await request(base, cookie, `/webhooks?${HOST_FILTER(host)}`, { view: true });
  const form = `/plans/new?resource=webhooks&${HOST_FILTER(host)}`;
  const page = await request(base, cookie, form, { view: true });
  if (!page.body.includes('name="ids"')) {
    if (phase) phase.note += `${host}: /plans/new without a form (${/data-testid="state-(\w+)"/.exec(page.body)?.[1] ?? page.status}). `;
    return null;
  }
  const posted = await post(() =>
    submitForm(`${base}${form}`, cookie, 'name="ids"', { edit: "replace-host", from: host, to, title: `Move ${host} to ${to}` }, page.body),
  );
  count(posted.status, `draft (${host})`);
  if (posted.status !== 303 || !posted.location) {
    // The form's answer (a refusal is in the page's action state).
    const said = /&quot;message&quot;:&quot;(.*?)&quot;/.exec(posted.body)?.[1];
    if (phase) phase.note += `${host}: draft answered ${posted.status}${said ? ` (“${said}”)` : ""}. `;
    const reference = /reference ([0-9a-f]{8})/.exec(said ?? "")?.[1];
    if (reference)
      console.log(
        `The server's log of ${reference}: ${
          portalLog()
            .split("\n")
            .find((line) => line.includes(reference)) ?? "(not in its last output)"
        }`,
      );
    return null;
  }
  return new URL(posted.location, base).pathname;
}

/** A form on the plan page (send for review, approve, apply, cancel, undo), as its button posts it. */
async function planAction(base: string, cookie: string, planPath: string, testId: string): Promise<{ status: number; location: string | null }> {
  const page = await request(base, cookie, planPath, { view: true });
  const posted = await post(() => submitForm(`${base}${planPath}`, cookie, `data-testid="${testId}"`, {}, page.body));
  count(posted.status, `${testId} on ${planPath}`);
  const refused = /&quot;status&quot;:&quot;error&quot;,&quot;message&quot;:&quot;(.*?)&quot;/.exec(posted.body)?.[1];
  if (refused && phase) phase.note += `${testId}: “${refused}”. `;
  return posted;
}

/**
 * A plan's page kept open while it applies: the page's script polls its progress every 2 s (a
 * portal without that route re-rendered the whole page every 2 s: the bench does that there).
 */
async function watchPlan(base: string, cookie: string, planPath: string, until: () => boolean): Promise<void> {
  const progress = `/api${planPath}/progress`;
  let live = (await request(base, cookie, progress)).status !== 404;
  while (!until()) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (live) live = (await request(base, cookie, progress)).status !== 404;
    else await request(base, cookie, planPath, { rsc: true, view: true });
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (flags.help) {
    console.log((await import("node:fs")).readFileSync(import.meta.filename, "utf8").split("*/")[0]);
    return;
  }
  if (!flags["no-build"]) {
    console.log("Building the portal (npm run build)…");
    const built = spawnSync(NPM, ["run", "--silent", "build"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (built.status !== 0) throw new Error("npm run build failed");
  }
  const database = await startDatabase(flags.database!, { embedded: flags.embedded });
  const port = Number(flags.port) || (await freePort());
  const sandbox = await startSandbox({ port: Number(flags.port) ? port + 1 : 0 });
  const secrets = benchSecrets();
  Object.assign(process.env, secrets, { DATABASE_URL: database.url, DATABASE_POOL_MAX: "1", EMS_ALLOW_PRIVATE_ORIGINS: new URL(sandbox.baseUrl).origin });
  const ann = await seedBenchUser(sandbox.baseUrl, LARGE);
  const abe = await seedBenchUser(sandbox.baseUrl, LARGE, { teamId: ann.teamId, role: "ADMIN" });
  const vic = await seedBenchUser(sandbox.baseUrl, LARGE, { teamId: ann.teamId, role: "MEMBER" });
  const bea = await seedBenchUser(sandbox.baseUrl, LARGE);
  const dee = await seedBenchUser(sandbox.baseUrl);

  const base = `http://127.0.0.1:${port}`;
  let portal: Service = startPortal({ port, databaseUrl: database.url, poolMax: database.poolMax, secrets, traceGc: true, nodeFlags: snapshotFlags });
  let heap = watchHeap(portal);
  portal.child.stdout?.on("data", (chunk: Buffer) => void gcLog(chunk));
  portalLog = () => portal.output();
  await waitForHttp(portal, `${base}/api/health`, 120_000);
  let lastOutput = "";
  // A supervisor's restart: the bench goes on, and counts it.
  supervise = setInterval(() => {
    if (portal.child.exitCode === null && portal.child.signalCode === null) return;
    restarts++;
    lastOutput = portal.output().slice(-3000);
    console.log(`The portal died (${portal.child.exitCode ?? portal.child.signalCode}); starting it again.\n${lastOutput.split("\n").slice(-8).join("\n")}`);
    portal = startPortal({ port, databaseUrl: database.url, poolMax: database.poolMax, secrets, traceGc: true, nodeFlags: snapshotFlags });
    heap = watchHeap(portal);
    portal.child.stdout?.on("data", (chunk: Buffer) => void gcLog(chunk));
  }, 500);
  sampler = setInterval(() => {
    if (!phase) return;
    phase.peakRss = Math.max(phase.peakRss, nextServerRss(portal.child.pid!) ?? 0);
    phase.peakHeap = Math.max(phase.peakHeap, heap.peakMb());
    phase.peakLive = Math.max(phase.peakLive, heap.peakLiveMb());
  }, 250);

  const cookies = new Map<BenchUser, string>();
  for (const person of [ann, abe, vic, bea, dee]) cookies.set(person, await signIn(base, person));
  const cookie = (person: BenchUser) => cookies.get(person)!;
  const viewing = {
    vic: ["/health", "/coverage", "/webhooks", "/webhook-groups", "/events"],
    dee: ["/webhooks", "/webhook-groups", "/health", "/coverage", "/events"],
  };
  console.log(`bench:memory: portal ${base} (${process.execPath.split("/").pop()} with npm start's heap cap, --trace-gc), ${database.kind}, sandbox ${sandbox.baseUrl}`);

  // 0. The account's pages once, as a morning's first views (the setup read and shared).
  let current = beginPhase("warm-up: Health, Coverage, lists once each", heap);
  for (const person of [vic, dee, bea]) for (const pathname of viewing.vic) await request(base, cookie(person), pathname, { view: true });
  current.seconds = (performance.now() - current.started) / 1000;
  await snapshotHeap(portal.child.pid);

  // 1. Two large plans drafted at once, people viewing meanwhile.
  current = beginPhase("drafting: 2 plans of ~5,000 at once, 2 viewers", heap);
  let drafting = true;
  const viewers = [browse(base, cookie(vic), viewing.vic, () => !drafting), browse(base, cookie(dee), viewing.dee, () => !drafting)];
  const [annFirst, beaPlan] = await Promise.all([
    draftFromList(base, cookie(ann), "hooks.example.com", "hooks.example.org"),
    draftFromList(base, cookie(bea), "ingest.example.net", "ingest.example.org"),
  ]);
  // Refused (busy) or failed: Ann tries again, as a person would.
  const annPlan = annFirst ?? (await draftFromList(base, cookie(ann), "hooks.example.com", "hooks.example.org"));
  drafting = false;
  await Promise.all(viewers);
  current.seconds = (performance.now() - current.started) / 1000;
  current.note += `Plans: ${[annPlan, beaPlan].filter(Boolean).length} of 2 drafted. `;
  await snapshotHeap(portal.child.pid);
  if (!annPlan) throw new Error(`Ann's plan was not drafted: ${current.note}`);

  // 2. Review and apply. Approving and applying need a recent password: Abe signs in again (confirms it's him).
  current = beginPhase("review: send, approve, apply now", heap);
  cookies.set(abe, await signIn(base, abe));
  await planAction(base, cookie(ann), annPlan, "plan-submit");
  await planAction(base, cookie(abe), annPlan, "plan-approve");
  await planAction(base, cookie(abe), annPlan, "plan-apply");
  current.seconds = (performance.now() - current.started) / 1000;
  await snapshotHeap(portal.child.pid);

  // 3. Applying, two tabs on the plan, two viewers.
  current = beginPhase(`applying: ${APPLY_MS / 1000} s, 2 plan tabs, 2 viewers`, heap);
  const applyEnds = performance.now() + APPLY_MS;
  const over = () => performance.now() > applyEnds;
  await Promise.all([
    watchPlan(base, cookie(ann), annPlan, over),
    watchPlan(base, cookie(abe), annPlan, over),
    browse(base, cookie(vic), viewing.vic, over),
    browse(base, cookie(dee), viewing.dee, over),
  ]);
  const progress = await request(base, cookie(abe), `/api${annPlan}/progress`);
  const done = progress.status === 200 ? (JSON.parse(progress.body) as { counts: { applied: number } }).counts.applied : null;
  current.note += done === null ? "" : `${done} steps applied. `;
  current.seconds = (performance.now() - current.started) / 1000;
  await snapshotHeap(portal.child.pid);

  // 4. Stop the rest, and undo what was applied.
  current = beginPhase("cancel the rest, draft the undo", heap);
  await planAction(base, cookie(abe), annPlan, "plan-cancel");
  for (let i = 0; i < 30; i++) {
    const page = await request(base, cookie(abe), annPlan, { view: true });
    if (page.body.includes('data-testid="plan-undo"')) break;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  const undo = await planAction(base, cookie(abe), annPlan, "plan-undo");
  if (undo.location) await request(base, cookie(abe), new URL(undo.location, base).pathname, { view: true });
  current.note += undo.status === 303 ? "Undo drafted. " : `Undo answered ${undo.status}. `;
  current.seconds = (performance.now() - current.started) / 1000;
  await snapshotHeap(portal.child.pid);
  phase = null;

  clearInterval(supervise);
  clearInterval(sampler);

  const cap = /--max-old-space-size=(\d+)/.exec(startNodeOptions().join(" "))?.[1] ?? "default";
  console.log(
    `\nbench:memory: the large account (${LARGE_ACCOUNT.groups.toLocaleString("en-US")} groups, 20,000 webhooks), the server at npm start's heap cap (${cap} MB).`,
  );
  console.table(
    phases.map((p) => {
      const s5xx = [...p.statuses].filter(([status]) => status >= 500 || status === 0).reduce((sum, [, n]) => sum + n, 0);
      return {
        phase: p.name,
        s: p.seconds.toFixed(0),
        "page views": p.views.length,
        "p50 ms": percentile(p.views, 50).toFixed(0),
        "p95 ms": percentile(p.views, 95).toFixed(0),
        "5xx": s5xx,
        "busy (429)": p.statuses.get(429) ?? 0,
        "peak RSS MB": (p.peakRss / 1024 / 1024).toFixed(0),
        "peak heap MB": p.peakHeap.toFixed(0),
        "live after full GC MB": p.peakLive.toFixed(0),
        note: p.note.trim(),
      };
    }),
  );
  const peakHeap = Math.max(...phases.map((p) => p.peakHeap));
  const peakLive = Math.max(...phases.map((p) => p.peakLive));
  const fiveXx = phases.reduce((sum, p) => sum + [...p.statuses].filter(([status]) => status >= 500 || status === 0).reduce((s, [, n]) => s + n, 0), 0);
  console.table([
    { target: "peak heap < 200 MB (cap 256 MB)", measured: `${peakHeap.toFixed(0)} MB`, met: peakHeap < 200 ? "met" : "NOT met" },
    { target: "live heap after a full GC < 200 MB", measured: `${peakLive.toFixed(0)} MB`, met: peakLive < 200 ? "met" : "NOT met" },
    { target: "no 5xx (nor a dropped connection)", measured: String(fiveXx), met: fiveXx === 0 ? "met" : "NOT met" },
    { target: "restarts: 0", measured: String(restarts), met: restarts === 0 ? "met" : "NOT met" },
  ]);
  const failure = phases.find((p) => p.firstFailure)?.firstFailure;
  if (failure) console.log(`First failure: ${failure}`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

main()
  .catch((error: unknown) => {
    if (portalLog().length > 0) console.error(`The portal's last output:\n${portalLog().slice(-3000)}`);
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(async () => {
    clearInterval(supervise);
    clearInterval(sampler);
    await cleanUp();
  });
