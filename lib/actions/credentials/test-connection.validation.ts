import { z } from "zod";

/** The test always uses the actor's own saved credentials; nothing to choose. */
export const testConnectionSchema = z.object({}).strip();
