/**
 * `npm run keys:rotate`: re-encrypts every stored API credential, two-factor secret and cached EMS token under the
 * active key (the first of CREDENTIAL_ENCRYPTION_KEYS). Safe to interrupt and run again: rows already
 * under the active key are skipped. Keep the old keys in the ring until this reports nothing left.
 *
 * Rotation, step by step:
 *   1. Put a new key first: CREDENTIAL_ENCRYPTION_KEYS="k2:<new>,k1:<old>" and restart the portal.
 *   2. npm run keys:rotate        (repeat until it reports 0 re-encrypted and 0 unreadable)
 *   3. Remove k1 from the ring and restart.
 *
 * Uses DATABASE_URL (or the embedded database of `npm run dev` / `npm run db:embedded`, which must be running then).
 * Runs with the react-server condition so that the server-only modules it shares with the portal load.
 */
import { loadEnvFiles } from "../lib/config/load-env-files";
import { embeddedDatabaseSettings, embeddedUrl, runningServer } from "../lib/config/embedded-database";

function parseBatchSize(argv: string[]): number {
  const flag = argv.find((arg) => arg.startsWith("--batch-size="));
  const value = flag ? Number(flag.slice("--batch-size=".length)) : 100;
  if (!Number.isInteger(value) || value < 1) throw new Error("--batch-size must be a positive integer");
  return value;
}

async function main(): Promise<number> {
  loadEnvFiles();
  if (!process.env.DATABASE_URL) {
    const { dataDir } = embeddedDatabaseSettings();
    const running = runningServer(dataDir);
    if (!running) {
      console.error(
        `DATABASE_URL is not set and the embedded database in ${dataDir} is not running: start \`npm run dev\` or \`npm run db:embedded\`, or set DATABASE_URL.`,
      );
      return 2;
    }
    process.env.DATABASE_URL = embeddedUrl(running.port);
    console.log(`DATABASE_URL is not set: using the embedded database of \`npm run dev\` (port ${running.port}).`);
  }
  const batchSize = parseBatchSize(process.argv.slice(2));
  // Imported after the environment is loaded: the key ring and the client read it.
  const { getKeyRing, KeyConfigurationError } = await import("../lib/crypto/secret-box");
  const { prisma } = await import("../lib/db/prisma");
  const { rotateStoredSecrets } = await import("@/lib/rotation/credentials");

  try {
    const ring = getKeyRing();
    console.log(`Active key: ${ring.activeKeyId} (ring: ${[...ring.keys.keys()].join(", ")}). Batch size ${batchSize}.`);
  } catch (error) {
    if (error instanceof KeyConfigurationError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }

  try {
    const report = await rotateStoredSecrets(prisma, {
      batchSize,
      onBatch: ({ table, scanned, reencrypted }) => console.log(`${table}: ${scanned} scanned, ${reencrypted} re-encrypted so far`),
    });
    const { credentials, twoFactor, tokens } = report;
    console.log(
      `Done. API credentials: ${credentials.scanned} scanned, ${credentials.reencrypted} re-encrypted, ` +
        `${credentials.skippedConcurrent} changed meanwhile, ${credentials.unreadable.length} unreadable.`,
    );
    console.log(
      `Two-factor secrets: ${twoFactor.scanned} scanned, ${twoFactor.reencrypted} re-encrypted, ` +
        `${twoFactor.skippedConcurrent} changed meanwhile, ${twoFactor.unreadable.length} unreadable.`,
    );
    console.log(
      `Cached EMS tokens: ${tokens.scanned} scanned, ${tokens.reencrypted} re-encrypted, ${tokens.cleared} unreadable and cleared, ` +
        `${tokens.skippedConcurrent} changed meanwhile.`,
    );
    console.log(`Shared listing answers under an older key: ${report.sharedAnswersDropped} dropped (re-fetched on the next page view).`);
    console.log(
      `Change history: ${report.history.reencrypted} of ${report.history.scanned} secrets re-encrypted${report.history.unreadable ? `, ${report.history.unreadable} unreadable (left as they are)` : ""}.`,
    );
    if (credentials.unreadable.length > 0) {
      console.error(
        `These credentials decrypt with no key of the ring and were left as they are (their owners must enter them again, ` +
          `or add the missing key back): ${credentials.unreadable.join(", ")}`,
      );
      return 1;
    }
    if (twoFactor.unreadable.length > 0) {
      console.error(
        `These people's two-factor secrets decrypt with no key of the ring and were left as they are (add the missing key back, ` +
          `or turn their two-factor off in the database so they enrol again): ${twoFactor.unreadable.join(", ")}`,
      );
      return 1;
    }
    if (credentials.skippedConcurrent > 0 || twoFactor.skippedConcurrent > 0 || tokens.skippedConcurrent > 0) {
      console.log("Some rows changed while this ran; run it again to be sure every row is under the active key.");
    }
    return 0;
  } finally {
    await prisma.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
