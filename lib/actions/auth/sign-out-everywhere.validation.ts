import { z } from "zod";

/** Always the actor's own sessions; nothing to choose. */
export const signOutEverywhereSchema = z.object({}).strip();
