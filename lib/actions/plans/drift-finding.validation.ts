import { z } from "zod";

/** The drift finding an action is for (lib/plans/drift-findings.ts): its id, nothing else from the form. */
export const driftFindingSchema = z.object({ findingId: z.uuid("That drift finding does not exist.") });
