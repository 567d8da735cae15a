import { z } from "zod";
import { recordId } from "./plan-fields.validation";

/** Putting a group back as change history says it was: the group, and the moment (ISO, UTC). */
export const draftGroupBackToSchema = z.object({
  groupId: recordId,
  at: z.iso
    .datetime({ error: "Choose the moment to put the group back to, like 2026-11-20T14:02:00Z." })
    // A moment still to come (the end of today) is the group as history knows it now.
    .transform((value) => new Date(Math.min(new Date(value).getTime(), Date.now()))),
});
