// `npm run test:unit`: vitest's projects, in two processes at once when TEST_DATABASE_URL is set:
// the unit and embedded-database projects in one, the same database tests against the
// TEST_DATABASE_URL server in the other. The two database projects use different databases, so
// they need not wait for each other; much of their time is spent waiting on timers and sockets,
// not the CPU (vitest.config.ts says how many files each runs at once).
// The second process's report is printed after the first's, so the two never interleave.
import { spawn } from "node:child_process";

const vitest = ["node_modules/vitest/vitest.mjs", "run"];
const extra = process.argv.slice(2);

function run(args, { buffered }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...vitest, ...args, ...extra], { stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit" });
    const chunks = [];
    if (buffered) {
      child.stdout.on("data", (chunk) => chunks.push(chunk));
      child.stderr.on("data", (chunk) => chunks.push(chunk));
    }
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks) }));
  });
}

if (!process.env.TEST_DATABASE_URL || extra.some((arg) => arg.startsWith("--project"))) {
  process.exit((await run([], { buffered: false })).code);
}
const postgres = run(["--project", "db-postgres", "--project", "db-postgres-isolated"], { buffered: true });
const first = await run(["--project", "unit", "--project", "unit-isolated", "--project", "db-embedded", "--project", "db-embedded-isolated"], { buffered: false });
const second = await postgres;
process.stdout.write(second.output);
process.exit(Math.max(first.code, second.code));
