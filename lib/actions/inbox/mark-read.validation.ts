import { z } from "zod";
import { INBOX_ITEM_NOT_FOUND } from "@/lib/inbox/list";

/** An inbox item's id (a cuid): anything else names no item of anyone's. */
export const markReadSchema = z.object({
  itemId: z
    .string({ error: INBOX_ITEM_NOT_FOUND })
    .max(40, INBOX_ITEM_NOT_FOUND)
    .regex(/^[a-z0-9]+$/, INBOX_ITEM_NOT_FOUND),
});
