import { z } from "zod";

export const unmuteFindingSchema = z.object({ muteId: z.string().regex(/^[a-z0-9]{1,40}$/, "That mute no longer exists.") });
