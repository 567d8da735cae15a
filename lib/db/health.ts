import "server-only";
import { answersWithin, getPrisma } from "@/lib/db/prisma";

/**
 * True when the database answers `SELECT 1` within `timeoutMs` (GET /api/health: 200 / 503).
 * Never throws: an unreachable or slow database is simply `false`.
 */
export async function checkDatabase(timeoutMs = 2_000): Promise<boolean> {
  try {
    return await answersWithin(getPrisma(), timeoutMs);
  } catch {
    return false; // e.g. DATABASE_URL unset
  }
}
