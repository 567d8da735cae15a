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
 * database projects, vitest.config.ts): the EMS client's per-process state (lib/ems/state.ts) holds
 * tokens, rate limits and writes keyed by a credential's fingerprint, which names the sandbox's
 * address; a later file's sandbox may get the same port, with another signing secret. Written out
 * (as a stopping server would), then forgotten.
 */
async function forgetEmsClientState(): Promise<void> {
  const state = (globalThis as { __emsClientState?: import("@/lib/ems/state").EmsProcessState }).__emsClientState;
  if (!state) return;
  const { flushEmsState } = await import("@/lib/ems/lifecycle");
  await flushEmsState().catch(() => undefined);
  for (const writer of state.rateLimitWriters.values()) if (writer.timer) clearTimeout(writer.timer);
  if (state.usage.timer) clearTimeout(state.usage.timer);
  state.usage.timer = null;
  state.usage.pending.clear();
  for (const map of [state.tokens, state.inflight, state.failing, state.rateLimits, state.rateLimitWriters, state.answerFlights]) map.clear();
  state.pendingWrites.clear();
}

afterAll(async () => {
  await forgetEmsClientState();
  const holder = globalThis as unknown as { emsPrisma?: { $disconnect(): Promise<void> } };
  await holder.emsPrisma?.$disconnect();
  holder.emsPrisma = undefined;
});
