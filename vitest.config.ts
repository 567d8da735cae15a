import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { toolingEnv } from "./lib/config/env-schema.js";

const root = path.dirname(fileURLToPath(import.meta.url));

// The projects (each "-isolated" one holds the files that replace modules, globals or the environment,
// each in a module graph of its own; the others share their workers' loaded modules):
// - unit:        tests/**/*.test.ts without a database.
// - db-embedded: tests/**/*.db.test.ts against a fresh embedded PostgreSQL (a real server from npm,
//                on a throw-away directory), migrated once by tests/setup/global-embedded.ts.
// - db-postgres: the same files against a fresh database on TEST_DATABASE_URL's server (only when
//                it is set; loopback servers only), created, migrated and dropped by
//                tests/setup/global-postgres.ts.
// Database tests read DATABASE_URL / DATABASE_POOL_MAX, set from the project's provided context by
// tests/setup/db-env.ts before anything connects.
const dbFiles = ["tests/**/*.db.test.ts"];
const unitFiles = ["tests/**/*.test.ts"];
const testFiles = readdirSync(path.join(root, "tests"), { recursive: true, encoding: "utf8" })
  .map((file) => path.posix.join("tests", file.split(path.sep).join("/")))
  .filter((file) => file.endsWith(".test.ts"));
const REPLACES = /\bvi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn)\(/;
/**
 * What else makes a database test file unfit to share its worker's modules: a helper that replaces
 * Next's modules (tests/actions/support), environment variables it sets, a database of its own.
 */
const DB_FILE_OWN_WORLD = /support\/next-(headers|cache)|process\.env\.\w+\s*=[^=]|withEnv\(|withOwnDatabase\(/;
const sourceOf = (file: string) => readFileSync(path.join(root, file), "utf8");
/**
 * Unit files that replace a module, a global, the environment or the clock: they run with a module
 * graph of their own, since a replacement would otherwise reach (or miss) the next file in the
 * same worker. Found by reading the files, so a new one is never forgotten.
 */
const unitFilesNeedingIsolation = testFiles.filter((file) => !file.endsWith(".db.test.ts") && REPLACES.test(sourceOf(file)));
/** The same for database test files, with what only they do (DB_FILE_OWN_WORLD). */
const dbFilesNeedingIsolation = testFiles.filter((file) => {
  if (!file.endsWith(".db.test.ts")) return false;
  const source = sourceOf(file);
  return REPLACES.test(source) || DB_FILE_OWN_WORLD.test(source);
});
/**
 * A database project: `shared`, the files that replace nothing, share their worker's loaded modules
 * (a third of the CPU of loading Prisma, the EMS client and the sandbox afresh per file, in the
 * phase of `npm test` that waits on the CPU); `isolated`, the others, each with a module graph of
 * its own. tests/setup/db-env.ts resets what a shared file could leave behind (the EMS client's
 * tokens and pending writes, the Prisma client).
 */
const dbProject = (name: string, globalSetup: string, isolation: "shared" | "isolated") => ({
  extends: true as const,
  test: {
    name: isolation === "shared" ? name : `${name}-isolated`,
    include: isolation === "shared" ? dbFiles : dbFilesNeedingIsolation.length > 0 ? dbFilesNeedingIsolation : ["no-such-file"],
    exclude: isolation === "shared" ? [...dbFilesNeedingIsolation, "node_modules/**"] : ["node_modules/**"],
    isolate: isolation === "isolated",
    globalSetup: [globalSetup],
    setupFiles: ["tests/setup/db-env.ts", "tests/setup/no-dns.ts"],
    // Files share one database and each seeds and asserts on its own rows, so they run side by
    // side; the few that act on whole tables have a database of their own (withOwnDatabase).
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  resolve: {
    alias: {
      "server-only": path.join(root, "tests/setup/server-only.ts"),
      "@": root,
    },
  },
  test: {
    environment: "node",
    // Worker threads start faster than forked processes. Three files at a time although the
    // machine may have two cores: a database test spends most of its time waiting on timers,
    // sockets and the database, not on the CPU (vitest's default would be one file at a time).
    pool: "threads",
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: unitFiles,
          exclude: [...dbFiles, ...unitFilesNeedingIsolation, "node_modules/**"],
          setupFiles: ["tests/setup/no-dns.ts"],
          // These files replace nothing that outlives them, so they share their workers' loaded
          // modules: a third of the time (and of the CPU) of loading every module afresh per file.
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "unit-isolated",
          include: unitFilesNeedingIsolation.length > 0 ? unitFilesNeedingIsolation : ["no-such-file"],
          setupFiles: ["tests/setup/no-dns.ts"],
          testTimeout: 30_000,
        },
      },
      dbProject("db-embedded", "tests/setup/global-embedded.ts", "shared"),
      dbProject("db-embedded", "tests/setup/global-embedded.ts", "isolated"),
      ...(toolingEnv().TEST_DATABASE_URL
        ? [dbProject("db-postgres", "tests/setup/global-postgres.ts", "shared"), dbProject("db-postgres", "tests/setup/global-postgres.ts", "isolated")]
        : []),
    ],
  },
});
