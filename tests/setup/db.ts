// Helpers for database tests.
import { prisma } from "@/lib/db/prisma";

/**
 * Opens `connections` pooled connections before a race: a new connection costs a password
 * handshake (tens of ms), long enough for the first of two "simultaneous" transactions to finish
 * before the second has a connection, which would hide the race the test is about.
 */
export async function warmPool(connections = 5): Promise<void> {
  await Promise.all(Array.from({ length: connections }, () => prisma.$executeRaw`SELECT pg_sleep(0.05)`));
}
