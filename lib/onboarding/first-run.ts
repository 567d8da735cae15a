import "server-only";
import { prisma } from "@/lib/db/prisma";

/**
 * Whether the portal has nobody yet: a fresh install, which opens on what EMS Portal is and
 * "Set up EMS Portal" (the first sign-up starts the first team and owns it) instead of a sign-in
 * form nobody can use. One indexed look, no personal data: it says only "someone exists".
 */
export async function portalIsEmpty(): Promise<boolean> {
  return (await prisma.user.findFirst({ select: { id: true } })) === null;
}
