import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createAdminClient } from "@/lib/sandbox/testing";
import { fillSignIn, signOut, type TestUser } from "./helpers/auth";
import { E2E_PORT } from "./helpers/config";
import { startOtlpReceiver, traceTree, type OtlpReceiver, type ReceivedSpan } from "./helpers/otlp-receiver";
import { startOwnServer, type OwnServer } from "./helpers/own-server";
import { DEMO, signUpWithSandbox } from "./listing-helpers";

// Traces and metrics against real receivers (README "Traces and metrics"): a production server of
// this spec's own, with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver started here and
// METRICS_TOKEN set, on a database of its own, so that every span and count comes from this spec.
// Two ports past E2E_PORT (the suite's server and the fault sandbox take the first two).
const PORT = E2E_PORT + 2;
const METRICS_TOKEN = randomBytes(24).toString("base64url");

test.describe.configure({ mode: "serial" });
test.use({ baseURL: `http://127.0.0.1:${PORT}`, storageState: { cookies: [], origins: [] } });

let receiver: OtlpReceiver;
let portal: OwnServer;
let page: Page;
let user: TestUser;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  receiver = await startOtlpReceiver();
  portal = await startOwnServer({ port: PORT, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, METRICS_TOKEN } });
  page = await browser.newPage({ baseURL: portal.baseUrl });
  user = await signUpWithSandbox(page, "otel");
});

test.afterAll(async () => {
  await page?.close();
  await portal?.close();
  await receiver?.close();
});

/** Where a spec's artefacts go: its output folder, and TELEMETRY_ARTIFACTS_DIR when set (the note's copies). */
function keep(name: string, text: string): void {
  const folders = [test.info().outputDir, process.env.TELEMETRY_ARTIFACTS_DIR].filter((folder): folder is string => Boolean(folder));
  for (const folder of folders) {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, name), `${text}\n`);
  }
}

function ancestors(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const byId = new Map(spans.map((candidate) => [candidate.spanId, candidate]));
  const chain: ReceivedSpan[] = [];
  for (let parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined; parent; parent = parent.parentSpanId ? byId.get(parent.parentSpanId) : undefined) {
    chain.push(parent);
  }
  return chain;
}

/** The root span of the document request for `route` that started after `since`, with its trace complete enough for `done`. */
async function listingTrace(route: string, sinceNs: bigint, done: (trace: ReceivedSpan[]) => boolean): Promise<{ root: ReceivedSpan; trace: ReceivedSpan[] }> {
  let found: { root: ReceivedSpan; trace: ReceivedSpan[] } | null = null;
  await receiver.waitFor((spans) => {
    const root = spans.find((span) => !span.parentSpanId && span.startNs >= sinceNs && span.name === `GET ${route}`);
    if (!root) return false;
    const trace = spans.filter((span) => span.traceId === root.traceId);
    found = { root, trace };
    return done(trace);
  });
  return found!;
}

test("a listing view is one trace: the request, the shared-answer miss, the token request and EMS calls below it, Prisma's queries", async () => {
  // The token from "Use the sandbox" is revoked: the listing's first call gets 401, then asks for a
  // new token and tries again, so one view shows every kind of EMS span.
  await createAdminClient(`${portal.baseUrl}/sandbox`, portal.adminSecret).revokeAllTokens();
  const since = BigInt(Date.now()) * 1_000_000n;
  await page.goto("/webhook-groups");
  await expect(page.getByRole("table").first()).toBeVisible();

  const { root, trace } = await listingTrace("/webhook-groups", since, (spans) => spans.filter((span) => span.name === "EMS GET webhook-groups").length >= 2);
  keep("trace.txt", traceTree(trace, root.spanId));
  expect(root.kind).toBe(2); // SERVER
  expect(root.attributes["http.status_code"]).toBe(200);

  const emsCalls = trace.filter((span) => span.name === "EMS GET webhook-groups").sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
  expect(emsCalls.map((span) => span.attributes["http.response.status_code"])).toEqual([401, 200]);
  for (const call of emsCalls) {
    expect(call.attributes).toMatchObject({ "ems.resource": "webhook-groups", "http.request.method": "GET", "url.path": "/api/v1/webhook-groups", "ems.attempt": 1 });
    expect(call.kind).toBe(3); // CLIENT
  }
  expect(emsCalls[1]!.attributes["ems.credits_remaining"]).toEqual(expect.any(Number));

  const shared = trace.find((span) => span.name === "EMS shared answer webhook-groups");
  expect(shared?.attributes).toMatchObject({ "ems.resource": "webhook-groups", "ems.shared_answer": "miss" });
  const tokenRequest = trace.find((span) => span.name === "EMS token request");
  expect(tokenRequest?.attributes["ems.token.result"]).toBe("issued");
  const tokenCall = trace.find((span) => span.name === "EMS POST token");
  expect(tokenCall?.attributes).toMatchObject({ "ems.resource": "token", "url.path": "/api/v1/oauth2/token", "http.response.status_code": 200, "ems.attempt": 1 });

  // Every one of them is a descendant of the request's span, and the EMS calls of the shared answer's.
  for (const span of [...emsCalls, shared!, tokenRequest!, tokenCall!]) expect(ancestors(trace, span).map((a) => a.spanId)).toContain(root.spanId);
  for (const call of emsCalls) expect(ancestors(trace, call).map((a) => a.spanId)).toContain(shared!.spanId);
  expect(ancestors(trace, tokenCall!).map((a) => a.spanId)).toContain(tokenRequest!.spanId);

  // Prisma's spans, in the same request: the session check, the views, the credential, the answer's row.
  const queries = trace.filter((span) => span.name === "prisma:client:db_query");
  expect(queries.length).toBeGreaterThanOrEqual(4);
  for (const query of queries) {
    expect(ancestors(trace, query).map((a) => a.spanId)).toContain(root.spanId);
    expect(String(query.attributes["db.query.text"]).trim()).toMatch(/^(SELECT|INSERT|UPDATE|DELETE|WITH|BEGIN|COMMIT)/i);
  }
});

test("a second view within the sharing window is a hit, with no EMS call", async () => {
  const since = BigInt(Date.now()) * 1_000_000n;
  await page.goto("/webhook-groups");
  await expect(page.getByRole("table").first()).toBeVisible();
  const { trace } = await listingTrace("/webhook-groups", since, (spans) => spans.some((span) => span.name === "EMS shared answer webhook-groups"));
  expect(trace.find((span) => span.name === "EMS shared answer webhook-groups")?.attributes["ems.shared_answer"]).toBe("hit");
  expect(trace.filter((span) => span.name.startsWith("EMS GET") || span.name.startsWith("EMS POST"))).toEqual([]);
});

/** `name{labels} value` lines of a scrape, as a map from the series to its value. */
function parseScrape(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match) series.set(match[1]!, Number(match[2]));
  }
  return series;
}

function sumOf(series: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [key, value] of series) {
    if (!key.startsWith(`${name}{`) && key !== name) continue;
    if (Object.entries(labels).every(([label, wanted]) => key.includes(`${label}="${wanted}"`))) total += value;
  }
  return total;
}

test("/api/metrics: a bearer token, and the counts of the traffic so far", async ({ request }) => {
  expect((await request.get(`${portal.baseUrl}/api/metrics`)).status()).toBe(401);
  expect((await request.get(`${portal.baseUrl}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}x` } })).status()).toBe(401);

  // One wrong password, as a person would type it.
  await signOut(page);
  await page.goto("/sign-in");
  await fillSignIn(page, { email: user.email, password: `${user.password} typo` });
  await expect(page.getByText("Wrong email or password.")).toBeVisible();

  const response = await request.get(`${portal.baseUrl}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/plain");
  const text = await response.text();
  keep("metrics.txt", text);
  const series = parseScrape(text);

  // The EMS calls counted are the calls the sandbox saw, by kind.
  const seen = await createAdminClient(`${portal.baseUrl}/sandbox`, portal.adminSecret).stats();
  expect(sumOf(series, "ems_calls_total", { resource: "token" })).toBe(seen.tokenRequests);
  expect(sumOf(series, "ems_calls_total") - sumOf(series, "ems_calls_total", { resource: "token" })).toBe(seen.apiRequests);
  expect(sumOf(series, "ems_calls_total", { resource: "webhook-groups", status: "401" })).toBe(1);
  expect(sumOf(series, "ems_token_requests_total", { result: "issued" })).toBe(seen.tokenRequests);
  // "Use the sandbox" (its check lists one group), then the listing: a miss, then a hit.
  expect(sumOf(series, "ems_shared_answers_total", { resource: "webhook-groups", result: "miss" })).toBe(1);
  expect(sumOf(series, "ems_shared_answers_total", { resource: "webhook-groups", result: "hit" })).toBe(1);
  expect(sumOf(series, "auth_sign_in_failures_total")).toBe(1);
  expect(sumOf(series, "auth_sign_in_throttled_total")).toBe(0);
  expect(series.has('db_pool_connections{state="in_use"}')).toBe(true);
  expect(sumOf(series, "db_pool_connections", { state: "idle" })).toBeGreaterThan(0);
});

test("no secret in any span or in the scrape", async ({ request }) => {
  // Tokens and values in the portal's own addresses: an invitation's path, a sign-up link's query, a
  // listing's search value. Next.js puts the request's URL on its spans; none of them may leave.
  const markers = ["invite-path-" + randomBytes(12).toString("hex"), "invite-query-" + randomBytes(12).toString("hex"), "search-" + randomBytes(12).toString("hex")];
  const since = BigInt(Date.now()) * 1_000_000n;
  await page.goto(`/invite/${markers[0]}`);
  await page.goto(`/sign-up?invite=${markers[1]}`);
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(`/webhook-groups?search=name~${markers[2]}`)}`);
  await receiver.waitFor((spans) => spans.filter((span) => !span.parentSpanId && span.startNs >= since && span.kind === 2).length >= 3);
  const scrape = await (await request.get(`${portal.baseUrl}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const cookies = await page.context().cookies();
  const basic = Buffer.from(`${DEMO.consumerKey}:${encodeURIComponent(DEMO.consumerSecret)}`).toString("base64");
  const secrets = [
    ...markers,
    ...portal.secrets,
    DEMO.consumerSecret,
    encodeURIComponent(DEMO.consumerSecret),
    basic,
    user.password,
    ...cookies.map((cookie) => cookie.value).filter((value) => value.length >= 16),
  ];
  const everything = [...receiver.rawBodies, scrape].join("\n");
  expect(receiver.rawBodies.length).toBeGreaterThan(0);
  for (const secret of secrets) expect(everything.includes(secret), `a secret (${secret.length} characters) was exported`).toBe(false);
  // No EMS token (the sandbox's are `ems1.<payload>.<signature>`), no Authorization value, no email.
  expect(everything).not.toMatch(/ems1\.[A-Za-z0-9_-]{8,}/);
  expect(everything).not.toMatch(/\b(Bearer|Basic) [A-Za-z0-9+/=_.-]{8,}/);
  expect(everything).not.toContain(user.email);
  // No query string of an EMS call: paths only.
  for (const span of receiver.spans.filter((candidate) => candidate.name.startsWith("EMS "))) {
    for (const value of Object.values(span.attributes)) expect(String(value)).not.toContain("?");
  }
});
