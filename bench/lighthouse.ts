/**
 * `npm run bench:lighthouse [-- --runs 3] [--no-build] [--before <dir>] [--database <url> | --embedded] [--only <text>] [--reports <dir>]`
 *
 * When a phone paints each list (issue 38: "LCP under 2 s on every list in Lighthouse's mobile
 * run"), and what the browser receives to paint it. A production build of the portal, started as
 * `npm start` starts it, on a real PostgreSQL with the standalone sandbox as the EMS API and a
 * signed-in person (bench/pages-seed.ts, as bench:pages), and the floor app (bench/floor-app: the
 * same 20 rows in a bare Next.js 16 page) in the same run. Lighthouse's default configuration is its
 * mobile run: a Moto G Power's screen, simulated slow 4G (150 ms RTT, 1.6 Mbit/s) and a 4x slower
 * CPU (its "simulate" method: one load, then the metrics computed for the throttled network and CPU).
 *
 * Every list of the navigation (components/shell/nav-items.ts) is measured --runs times (the median
 * by LCP is shown): LCP, FCP, TBT, what went over the wire (Lighthouse's transfer sizes: the HTML,
 * scripts and CSS, compressed as the server sent them), and the HTML split by bench/html-bytes.ts
 * (markup, inline RSC payload, class attributes), with the element that was the LCP and what
 * blocked the first paint.
 *
 * The browser is the machine's Chromium (scripts/find-chromium.ts; CHROMIUM_PATH chooses another).
 * Lighthouse's simulated CPU multiplies what this machine's CPU took: run it on a quiet machine.
 * With --before <dir>, a copy of an earlier build's .next/standalone (with its .next/static, as
 * `npm run build` leaves it) is started beside this one on the same database and signed-in person,
 * and every list is measured on both, one after the other: a before/after in one run, under the
 * same load. With --reports <dir>, each run's whole Lighthouse report (JSON, for its viewer) is written there.
 * Loopback only. Results also go to bench/results/lighthouse.json.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { buildPortalAndFloor } from "./builds";
import { startFloor } from "./floor";
import { htmlBytes, type HtmlBytes } from "./html-bytes";
import { startLighthouseBrowser } from "./lighthouse-browser";
import { seedBenchUser, signIn } from "./pages-seed";
import { benchSecrets, runBench, writeResults, onCleanUp, startDatabase, startPortal, startSandbox } from "./portal-stack";
import { freePort, waitForHttp, type Service } from "./processes";
import { TIME_ZONE_COOKIE } from "../lib/time/format";

const { values: flags } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    "no-build": { type: "boolean", default: false },
    database: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    embedded: { type: "boolean", default: false },
    only: { type: "string" },
    reports: { type: "string" },
    before: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

const RUNS = Number(flags.runs);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 20) throw new Error("--runs must be a whole number from 1 to 20");

/** The lists of the navigation (components/shell/nav-items.ts), an owner's (the audit log is theirs). */
const PORTAL_LISTS = ["/webhook-groups", "/webhooks", "/events", "/plans", "/inbox", "/changes", "/audit", "/health", "/coverage"];

interface PageRun {
  lcp: number;
  fcp: number;
  tbt: number;
  /** Bytes over the wire, by Lighthouse's resource summary. */
  transferred: { total: number; document: number; script: number; stylesheet: number; font: number; requests: number };
  lcpElement: string | null;
  renderBlocking: string[];
}

type LighthouseAudits = Record<string, { numericValue?: number; details?: { items?: Array<Record<string, unknown>>; type?: string } & Record<string, unknown> }>;

/** The element Lighthouse named as the LCP, as a short snippet (the lcp-breakdown insight carries its node). */
function lcpElement(audits: LighthouseAudits): string | null {
  const find = (value: unknown): string | null => {
    if (!value || typeof value !== "object") return null;
    const node = value as { type?: string; snippet?: string; nodeLabel?: string };
    if (node.type === "node" && node.snippet) return `${node.snippet.slice(0, 70)}${node.nodeLabel ? ` "${node.nodeLabel.slice(0, 30)}"` : ""}`;
    for (const child of Object.values(value)) {
      const found = find(child);
      if (found) return found;
    }
    return null;
  };
  return find(audits["lcp-breakdown-insight"]?.details) ?? find(audits["largest-contentful-paint-element"]?.details);
}

function renderBlocking(audits: LighthouseAudits): string[] {
  const items = audits["render-blocking-insight"]?.details?.items ?? [];
  return items.map((item) => `${String(item.url).replace(/^https?:\/\/[^/]+/, "")} (${Math.round(Number(item.wastedMs ?? 0))} ms)`);
}

async function lighthouseRun(url: string, port: number, report: string | null): Promise<PageRun> {
  const result = await lighthouse(url, { port, onlyCategories: ["performance"], logLevel: "error", output: "json" });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (report) fs.writeFileSync(report, String(result.report));
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audits = lhr.audits as unknown as LighthouseAudits;
  const summary = new Map(
    (audits["resource-summary"].details?.items ?? []).map((item) => [String(item.resourceType), item as { transferSize: number; requestCount: number }]),
  );
  const size = (type: string) => summary.get(type)?.transferSize ?? 0;
  return {
    lcp: audits["largest-contentful-paint"].numericValue!,
    fcp: audits["first-contentful-paint"].numericValue!,
    tbt: audits["total-blocking-time"].numericValue!,
    transferred: {
      total: size("total"),
      document: size("document"),
      script: size("script"),
      stylesheet: size("stylesheet"),
      font: size("font"),
      requests: summary.get("total")?.requestCount ?? 0,
    },
    lcpElement: lcpElement(audits),
    renderBlocking: renderBlocking(audits),
  };
}

/** The run in the middle by LCP (of an even number, the lower of the two middle ones); every run is printed too. */
const median = (runs: PageRun[]): PageRun => [...runs].sort((a, b) => a.lcp - b.lcp)[Math.floor((runs.length - 1) / 2)];

interface PageResult {
  page: string;
  url: string;
  runs: PageRun[];
  median: PageRun;
  html: HtmlBytes;
}

async function fetchHtml(url: string, cookie: string | undefined): Promise<string> {
  const response = await fetch(url, { headers: { ...(cookie ? { cookie: `${cookie}; ${TIME_ZONE_COOKIE}=UTC` } : {}) }, redirect: "manual" });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status} ${response.headers.get("location") ?? ""}`);
  if (!body.includes("<main")) throw new Error(`${url} has no <main>: not the page the bench expects`);
  return body;
}

/** The earlier build named by --before, on a free port, as `npm start` would start it. */
async function startBefore(
  standaloneDir: string,
  database: { url: string; poolMax: number },
  secrets: Record<string, string>,
): Promise<{ url: string; service: Service }> {
  if (!fs.existsSync(path.join(standaloneDir, "server.js"))) throw new Error(`--before ${standaloneDir}: no server.js there (give a copy of a build's .next/standalone)`);
  const port = await freePort();
  const service = startPortal({ port, databaseUrl: database.url, poolMax: database.poolMax, secrets, standaloneDir });
  return { url: `http://127.0.0.1:${port}`, service };
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const ms = (value: number) => Math.round(value).toLocaleString("en");

async function main(): Promise<void> {
  if (flags.help) {
    console.log(fs.readFileSync(import.meta.filename, "utf8").split("*/")[0]);
    return;
  }
  if (!flags["no-build"]) buildPortalAndFloor();

  const database = await startDatabase(flags.database!, { embedded: flags.embedded });
  const sandbox = await startSandbox();
  const secrets = benchSecrets();
  Object.assign(process.env, secrets, { DATABASE_URL: database.url, DATABASE_POOL_MAX: "1", EMS_ALLOW_PRIVATE_ORIGINS: new URL(sandbox.baseUrl).origin });
  const user = await seedBenchUser(sandbox.baseUrl);

  const portalPort = await freePort();
  const portalUrl = `http://127.0.0.1:${portalPort}`;
  const portal = (portalService = startPortal({ port: portalPort, databaseUrl: database.url, poolMax: database.poolMax, secrets }));
  const before = flags.before ? await startBefore(path.resolve(flags.before), database, secrets) : null;
  const floor = await startFloor(sandbox.baseUrl);
  await waitForHttp(portal, `${portalUrl}/api/health`, 120_000);
  if (before) await waitForHttp(before.service, `${before.url}/api/health`, 120_000);
  await floor.ready();
  const cookie = await signIn(portalUrl, user);

  if (flags.reports) fs.mkdirSync(flags.reports, { recursive: true });
  const browser = await startLighthouseBrowser();
  onCleanUp(() => browser.close());
  await browser.setCookies(portalUrl, cookie, { [TIME_ZONE_COOKIE]: "UTC" });

  const targets = [
    { page: "floor (bench/floor-app)", url: `${floor.url}/`, cookie: undefined },
    ...PORTAL_LISTS.flatMap((pathname) => [
      ...(before ? [{ page: `${pathname} (before)`, url: `${before.url}${pathname}`, cookie }] : []),
      { page: pathname, url: `${portalUrl}${pathname}`, cookie },
    ]),
  ].filter((target) => flags.only === undefined || target.page.startsWith("floor") || target.page.includes(flags.only));

  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
  console.log(`bench:lighthouse: Lighthouse mobile (simulated slow 4G, 4x CPU), ${RUNS} run(s) a page, median by LCP; ${browser.executable}; load average ${load}.`);
  const results: PageResult[] = [];
  for (const target of targets) {
    // Warm: the first view of a page pays for the server's first render and the shared answer (its
    // rows then stream behind a skeleton); the second is what Lighthouse's runs get.
    await fetchHtml(target.url, target.cookie);
    const html = await fetchHtml(target.url, target.cookie);
    const runs: PageRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      const report = flags.reports ? path.join(flags.reports, `${target.page.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}-${i + 1}.json`) : null;
      runs.push(await lighthouseRun(target.url, browser.port, report));
    }
    results.push({ page: target.page, url: target.url, runs, median: median(runs), html: htmlBytes(html) });
    console.log(`  ${target.page}: LCP ${runs.map((run) => ms(run.lcp)).join(", ")} ms`);
  }

  console.table(
    results.map(({ page, median: run, html }) => ({
      page,
      "LCP ms": ms(run.lcp),
      "FCP ms": ms(run.fcp),
      "TBT ms": ms(run.tbt),
      "sent kB": kB(run.transferred.total),
      "HTML kB (wire)": kB(run.transferred.document),
      "JS kB (wire)": kB(run.transferred.script),
      "CSS kB (wire)": kB(run.transferred.stylesheet),
      requests: run.transferred.requests,
      "HTML kB": kB(html.total),
      "markup kB": kB(html.markup),
      "RSC kB": kB(html.rscPayload),
      "class kB": kB(html.classAttributes),
      streamed: html.streamedBoundaries,
    })),
  );
  console.table(results.map(({ page, median: run }) => ({ page, "LCP element": run.lcpElement ?? "?", "render-blocking": run.renderBlocking.join(", ") || "-" })));
  console.log(
    `Load average at the end: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")} (${os.cpus().length} CPUs).`,
  );

  writeResults("lighthouse", { runs: RUNS, load, results });
}

/** The portal, once started: what it printed is shown when the bench fails. */
let portalService: Service | undefined;

runBench(main, () =>
  portalService ? `The portal's last output (exit code ${portalService.child.exitCode ?? "none: running"}):\n${portalService.output().slice(-4000)}` : undefined,
);
