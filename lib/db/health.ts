import "server-only";
import { prisma } from "@/lib/db/prisma";

/**
 * True when the database answers `SELECT 1` within `timeoutMs` (GET /api/health: 200 / 503).
 * Never throws: an unreachable or slow database is simply `false`.
 */
export async function checkDatabase(timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const answered = prisma.$queryRaw<Array<{ ok: number }>>`SELECT 1 AS ok`.then(
      (rows) => rows[0]?.ok === 1,
      () => false,
    );
    return await Promise.race([answered, timedOut]);
  } catch {
    return false; // e.g. DATABASE_URL unset
  } finally {
    clearTimeout(timer);
  }
}
