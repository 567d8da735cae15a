import path from "node:path";
import { defineConfig } from "prisma/config";
import { loadEnvFiles } from "./lib/config/load-env-files";
import { embeddedDatabaseUrl } from "./lib/config/embedded-database";
import { toolingEnv } from "./lib/config/env-schema";

loadEnvFiles();

// Prisma's CLI downloads a native schema engine at first use; where that download cannot happen,
// a small Node bridge over the wasm engine stands in (prisma/engine-bridge/README.md).
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = path.resolve("prisma/engine-bridge/schema-engine");
}

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    url: process.env.DATABASE_URL || embeddedDatabaseUrl(),
    shadowDatabaseUrl: toolingEnv().SHADOW_DATABASE_URL,
  },
});
