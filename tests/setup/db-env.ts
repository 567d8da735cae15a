// Runs in each worker before a database test file: points the app's Prisma client
// (lib/db/prisma.ts, created lazily from these variables) at the project's test database, and
// closes it after the file. Files run side by side on one database: each file's connections carry
// an application_name of their own, so that a test looking at pg_stat_activity can tell its own
// connections from those of the files beside it (current_setting('application_name')).
import { randomBytes } from "node:crypto";
import "./provided";
import { afterAll, inject } from "vitest";

const url = new URL(inject("databaseUrl"));
url.searchParams.set("application_name", `vitest-${randomBytes(4).toString("hex")}`);
process.env.DATABASE_URL = url.toString();
process.env.DATABASE_POOL_MAX = inject("databasePoolMax");

/**
 * What a file leaves in its worker for the next one where files share their modules (the "shared"
 * database projects, vitest.config.ts): the EMS client's per-process state, keyed by a credential's
 * fingerprint, which names the sandbox's address (a later file's sandbox may get the same port, with
 * another signing secret). Only a file that used the client has any (lib/ems/state.ts's holder).
 */
async function forgetEmsClientState(): Promise<void> {
  if (!("__emsClientState" in globalThis)) return;
  const { forgetEmsState } = await import("@/lib/ems/lifecycle");
  await forgetEmsState();
}

afterAll(async () => {
  await forgetEmsClientState();
  const holder = globalThis as unknown as { emsPrisma?: { $disconnect(): Promise<void> } };
  await holder.emsPrisma?.$disconnect();
  holder.emsPrisma = undefined;
});
