// The schema-engine bridge (prisma/engine-bridge) end to end, on the project's fresh database: its
// global setup applied every migration with `prisma migrate deploy`; here the CLI confirms that the
// history matches prisma/schema.prisma and the database is up to date.
import fs from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { runPrisma } from "@/scripts/db/prisma-cli";
import "../setup/provided";

const env = () => ({
  DATABASE_URL: inject("databaseUrl"),
  // Empty: the bridge creates (and drops) a temporary shadow database on the server itself.
  SHADOW_DATABASE_URL: "",
});

describe("schema-engine bridge", () => {
  it("finds no difference between the committed migrations and the schema", async () => {
    const diff = await runPrisma(["migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema", "prisma/schema.prisma", "--exit-code"], {
      env: env(),
      stdio: "pipe",
    });
    expect(diff.stdout + diff.stderr).toContain("No difference detected");
    expect(diff.code).toBe(0);
  });

  it("reports the freshly deployed database as up to date", async () => {
    const status = await runPrisma(["migrate", "status"], { env: env(), stdio: "pipe" });
    expect(status.stdout).toContain("Database schema is up to date");
    expect(status.code).toBe(0);
  });

  it("recorded every migration directory as applied", async () => {
    const directories = fs
      .readdirSync("prisma/migrations", { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const applied = await prisma.$queryRaw<Array<{ migration_name: string }>>`
      SELECT migration_name FROM _prisma_migrations
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`;
    expect(applied.map((row) => row.migration_name)).toEqual(directories);
  });
});
