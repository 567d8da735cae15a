import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.dirname(fileURLToPath(import.meta.url));

// Three projects:
// - unit:        tests/**/*.test.ts without a database.
// - db-embedded: tests/**/*.db.test.ts against a fresh in-memory embedded PostgreSQL (PGlite),
//                migrated once by tests/setup/global-embedded.ts. One connection: files run one by one.
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
    setupFiles: ["tests/setup/db-env.ts"],
    // The embedded server takes one connection at a time, and test files share one database:
    // one file at a time keeps them from queueing behind each other.
    fileParallelism: false,
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
          testTimeout: 30_000,
        },
      },
      dbProject("db-embedded", "tests/setup/global-embedded.ts"),
      ...(process.env.TEST_DATABASE_URL ? [dbProject("db-postgres", "tests/setup/global-postgres.ts")] : []),
    ],
  },
});
