import { z } from "zod";

/** The session to end: one of the actor's own (checked by endSession, not here). */
export const endSessionSchema = z.object({
  sessionId: z.string({ error: "Choose a session to end." }).trim().min(1, { error: "Choose a session to end." }).max(64, { error: "That session has already ended." }),
});
