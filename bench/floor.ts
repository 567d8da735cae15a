/**
 * The floor app (bench/floor-app) started as `next start` starts it, with the heap limits `npm start`
 * gives the portal, reading the same 20 webhook groups the portal's bare /webhook-groups shows.
 */
import { DEMO_CREDENTIALS } from "../lib/sandbox/demo-credentials";
import { FLOOR_DIR, NEXT_BIN } from "./builds";
import { onCleanUp, ROOT, startNodeOptions } from "./portal-stack";
import { freePort, startService, waitForHttp, type Service } from "./processes";

/** The query string the portal sends the EMS API for a bare /webhook-groups, so the floor asks for the same rows. */
async function portalWebhookGroupsQuery(): Promise<string> {
  const { parseListingSearchParams } = await import("../lib/listing/search-params");
  const { toEmsQuery } = await import("../lib/listing/query");
  const { buildQueryString } = await import("../lib/ems/query");
  return buildQueryString("webhook-groups", toEmsQuery(parseListingSearchParams("webhook-groups", {})) as never).replace(/^\?/, "");
}

/** Starts the floor (a build must exist) on a free port; stopped by `cleanUp()`. Call `ready()` before the first request. */
export async function startFloor(sandboxBaseUrl: string): Promise<{ url: string; service: Service; ready(): Promise<void> }> {
  const { basicAuthorization } = await import("../lib/ems/credentials");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = startService("floor app", process.execPath, [...startNodeOptions(), NEXT_BIN, "start", FLOOR_DIR, "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      FLOOR_SANDBOX_URL: sandboxBaseUrl,
      FLOOR_BASIC_AUTHORIZATION: basicAuthorization(DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret),
      FLOOR_QUERY: await portalWebhookGroupsQuery(),
    },
  });
  onCleanUp(() => service.stop());
  return { url, service, ready: () => waitForHttp(service, `${url}/`, 120_000) };
}
