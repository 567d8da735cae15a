import { z } from "zod";

export const draftUndoChangeSchema = z.object({ changeId: z.uuid("That change does not exist.") });
