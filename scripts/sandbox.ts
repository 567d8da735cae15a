/**
 * Standalone sandbox: `npm run sandbox` serves the EMS API contract on SANDBOX_PORT (default 4010).
 * Settings come from the environment (SANDBOX_ACCOUNTS, SANDBOX_SIGNING_SECRET, SANDBOX_ADMIN_SECRET,
 * SANDBOX_HOST, SANDBOX_DRIFT_SECONDS). Without an admin secret one is generated and printed, so faults stay guarded.
 */
import { randomBytes } from "node:crypto";
import { loadEnvFiles } from "@/lib/config/load-env-files";
import { sandboxSettings } from "@/lib/env";
import { listenSandbox } from "@/lib/sandbox/server";

async function main(): Promise<void> {
  loadEnvFiles();
  const { options, port, host } = sandboxSettings();
  const adminSecret = options.adminSecret ?? randomBytes(18).toString("base64url");
  const started = Date.now();
  const running = await listenSandbox({ ...options, adminSecret, port, host });

  console.log(`EMS sandbox listening on ${running.baseUrl} (data ready in ${Date.now() - started} ms)`);
  console.log(`  base URL for the portal:   ${running.baseUrl}`);
  console.log(`  OpenAPI document:          ${running.baseUrl}/api/v1/openapi.json`);
  for (const account of running.sandbox.accounts.values()) {
    console.log(`  account  key: ${account.key}  secret: ${JSON.stringify(account.secret)}  (${account.groups} webhook groups, ${account.events} events)`);
  }
  // Only a generated secret is printed; one set in the environment is already known to its owner.
  const shownSecret = options.adminSecret ? "(the value of SANDBOX_ADMIN_SECRET)" : adminSecret;
  console.log(`  admin: ${running.baseUrl}/__admin/{stats,state,reset,faults,edits,...} with header X-Sandbox-Admin-Secret: ${shownSecret}`);
  if (options.driftSeconds > 0) {
    const [first] = running.sandbox.accounts.keys();
    console.log(`  drift: 1 to 3 random edits of ${first} every ${options.driftSeconds} s (SANDBOX_DRIFT_SECONDS; POST reset restores the data)`);
  }

  const stop = () => {
    running.close().finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
