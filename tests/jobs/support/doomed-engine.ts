/**
 * A job engine in a process of its own, for tests/jobs/engine.db.test.ts to kill with SIGKILL: it
 * works `orphan-test` jobs on the schema named by JOB_TEST_SCHEMA, prints "STARTED <n>" when a run
 * starts, and never finishes one, as an instance killed mid-run leaves it.
 * Run with `node --conditions=react-server --import tsx`.
 */
import { startJobEngine } from "@/lib/jobs/engine";
import { ORPHAN_JOB_NAME, ORPHAN_JOB_EXPIRY_SECONDS } from "./orphan-job";

const engine = await startJobEngine({
  connectionString: process.env.JOB_TEST_DATABASE_URL!,
  schema: process.env.JOB_TEST_SCHEMA!,
  poolMax: 2,
  intervals: { polling: 0.5 },
  jobs: [
    {
      name: ORPHAN_JOB_NAME,
      expireInSeconds: ORPHAN_JOB_EXPIRY_SECONDS,
      retryLimit: 0,
      run: (_context, data) => {
        process.stdout.write(`STARTED ${(data as { n: number }).n}\n`);
        return new Promise(() => undefined);
      },
    },
  ],
});
process.stdout.write("READY\n");
// Kept alive by the engine's timers until the test kills it.
void engine;
