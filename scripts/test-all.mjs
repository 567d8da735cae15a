// `npm test`: every check, in three phases, with the time each step took printed at the end.
//   1. types, lint and formatting, side by side (each is one core's work);
//   2. the production build beside the vitest projects (scripts/test-unit.mjs: unit,
//      embedded-database and, when TEST_DATABASE_URL is set, real-PostgreSQL tests). The build
//      skips its own type check, which phase 1 did; it cannot run beside `next typegen`, which
//      writes into the same .next directory the build starts by clearing;
//   3. the end-to-end tests in Chromium against that build, alone: they keep two cores busy by
//      themselves (measured: 645 of 660 CPU-seconds in a 330 s run), so running vitest beside
//      them only slows both (tried: the whole run took longer, with a load average of 20).
// A phase starts only when the one before passed. Steps that run side by side have their output
// held and printed whole when they end, so reports never interleave.
import { spawn } from "node:child_process";

const npmRun = (script, env = {}) => ({ command: process.platform === "win32" ? "npm.cmd" : "npm", args: ["run", "--silent", script], env });

// `npm run lint` is eslint then prettier; here they are two steps beside the type check, so the
// core the type check leaves idle after its 40 s is not idle while eslint finishes alone.
const nodeScript = (script, ...args) => ({ command: process.execPath, args: [script, ...args], env: {} });

const phases = [
  [
    { name: "types", ...npmRun("typecheck") },
    { name: "lint", ...nodeScript("node_modules/eslint/bin/eslint.js", ".") },
    { name: "format", ...nodeScript("node_modules/prettier/bin/prettier.cjs", "--check", "--log-level=warn", ".") },
  ],
  [
    // next.config.js reads this: the build's own type check would repeat step "types".
    // On CI (a fresh clone, thrown away after) the build writes no cache of its own: next.config.js.
    { name: "build", ...npmRun("build", { EMS_BUILD_SKIP_TYPECHECK: "1", ...(process.env.CI ? { EMS_BUILD_CACHE: "off" } : {}) }) },
    { name: "unit and database tests", ...npmRun("test:unit") },
  ],
  [{ name: "end-to-end tests", command: process.execPath, args: ["node_modules/@playwright/test/cli.js", "test"], env: {} }],
];

function run(step, { buffered }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, {
      env: { ...process.env, ...step.env },
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
      shell: process.platform === "win32",
    });
    const chunks = [];
    child.stdout?.on("data", (chunk) => chunks.push(chunk));
    child.stderr?.on("data", (chunk) => chunks.push(chunk));
    child.on("close", (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      if (buffered) {
        process.stdout.write(`\n== ${step.name} (${seconds.toFixed(0)} s)\n`);
        process.stdout.write(Buffer.concat(chunks));
      }
      resolve({ name: step.name, ok: code === 0 && !signal, seconds });
    });
  });
}

const results = [];
const began = Date.now();
for (const phase of phases) {
  const started = Date.now();
  const outcomes = await Promise.all(phase.map((step) => run(step, { buffered: phase.length > 1 })));
  results.push(...outcomes.map((outcome) => ({ ...outcome, phaseSeconds: (Date.now() - started) / 1000 })));
  if (outcomes.some((outcome) => !outcome.ok)) break;
}

const total = (Date.now() - began) / 1000;
console.log("\nstep                        result   seconds");
for (const result of results) console.log(`${result.name.padEnd(28)}${(result.ok ? "passed" : "FAILED").padEnd(9)}${result.seconds.toFixed(0).padStart(7)}`);
console.log(`${"total".padEnd(37)}${total.toFixed(0).padStart(7)}`);
const ran = results.length === phases.flat().length;
process.exit(ran && results.every((result) => result.ok) ? 0 : 1);
