/**
 * One "portal instance" for the cross-instance test (tests/ems/cross-instance.db.test.ts): a
 * separate Node process with its own memory and its own database pool. It connects, says
 * "ready", waits for "go" on stdin, makes EMS_INSTANCE_CALLS concurrent listings, and prints one
 * JSON line with the outcome. Run with `node --conditions=react-server --import tsx`; pass
 * `--lease-ms=<n>` for a short token lease (a test that kills the lease holder).
 */
import { createInterface } from "node:readline";
import { prisma } from "@/lib/db/prisma";
import { credentialFingerprint, flushEmsState, getEmsClient } from "@/lib/ems";
import { setTokenLeaseMs } from "@/lib/ems/token-cache";
import { DEMO_CREDENTIALS } from "@/lib/sandbox/demo-credentials";

async function main(): Promise<void> {
  const baseUrl = process.env.EMS_INSTANCE_BASE_URL!;
  const calls = Number(process.env.EMS_INSTANCE_CALLS || 50);
  const leaseMs = process.argv.find((arg) => arg.startsWith("--lease-ms="));
  if (leaseMs) setTokenLeaseMs(Number(leaseMs.slice("--lease-ms=".length)));
  const client = getEmsClient({
    fingerprint: credentialFingerprint(baseUrl, DEMO_CREDENTIALS.consumerKey, DEMO_CREDENTIALS.consumerSecret),
    baseUrl,
    ...DEMO_CREDENTIALS,
  });
  // Open a connection and load every module before the start signal, so the race is real.
  await prisma.$queryRaw`SELECT 1`;
  await prisma.emsTokenCache.count();
  const lines = createInterface({ input: process.stdin });
  const go = new Promise<void>((resolve) => lines.once("line", () => resolve()));
  process.stdout.write("READY\n");
  await go;
  lines.close();
  const outcomes = await Promise.allSettled(Array.from({ length: calls }, (_, i) => client.listWebhookGroups({ perPage: 5, page: (i % 5) + 1 })));
  await flushEmsState();
  await prisma.$disconnect();
  const errors = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [String((outcome.reason as Error)?.name ?? outcome.reason)] : []));
  process.stdout.write(`RESULT ${JSON.stringify({ ok: calls - errors.length, errors })}\n`);
}

main().catch((error) => {
  process.stdout.write(`RESULT ${JSON.stringify({ ok: 0, errors: [String(error)] })}\n`);
  process.exit(1);
});
