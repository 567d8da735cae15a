import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { toolingEnv } from "./lib/config/env-schema.js";

const root = path.dirname(fileURLToPath(import.meta.url));

// Three projects:
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
/**
 * Unit files that replace a module, a global, the environment or the clock: they run with a module
 * graph of their own, since a replacement would otherwise reach (or miss) the next file in the
 * same worker. Found by reading the files, so a new one is never forgotten.
 */
const unitFilesNeedingIsolation = readdirSync(path.join(root, "tests"), { recursive: true, encoding: "utf8" })
  .map((file) => path.posix.join("tests", file.split(path.sep).join("/")))
  .filter((file) => file.endsWith(".test.ts") && !file.endsWith(".db.test.ts"))
  .filter((file) => /\bvi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn)\(/.test(readFileSync(path.join(root, file), "utf8")));
const dbProject = (name: string, globalSetup: string) => ({
  extends: true as const,
  test: {
    name,
    include: dbFiles,
    globalSetup: [globalSetup],
    setupFiles: ["tests/setup/db-env.ts", "tests/setup/no-dns.ts"],
    // Files share one database and each seeds and asserts on its own rows, so they run side by
    // side; the few that act on whole tables have a database of their own (withOwnDatabase).
    // Each file gets a fresh worker (isolation): many replace modules (next/headers) with vi.mock.
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
      dbProject("db-embedded", "tests/setup/global-embedded.ts"),
      ...(toolingEnv().TEST_DATABASE_URL ? [dbProject("db-postgres", "tests/setup/global-postgres.ts")] : []),
    ],
  },
});
