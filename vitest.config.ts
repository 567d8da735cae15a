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
const dbProject = (name: string, globalSetup: string) => ({
  extends: true as const,
  test: {
    name,
    include: dbFiles,
    globalSetup: [globalSetup],
    setupFiles: ["tests/setup/db-env.ts", "tests/setup/no-dns.ts"],
    // Files share one database and each seeds and asserts on its own rows, so they run side by
    // side; the two that act on whole tables have a database of their own (withOwnDatabase).
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
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/**/*.test.ts"],
          exclude: [...dbFiles, "node_modules/**"],
          setupFiles: ["tests/setup/no-dns.ts"],
          testTimeout: 30_000,
        },
      },
      dbProject("db-embedded", "tests/setup/global-embedded.ts"),
      ...(toolingEnv().TEST_DATABASE_URL ? [dbProject("db-postgres", "tests/setup/global-postgres.ts")] : []),
    ],
  },
});
