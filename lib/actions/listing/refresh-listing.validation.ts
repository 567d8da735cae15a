import { z } from "zod";

/**
 * What the refresh button sends: the listing (resource and its search string, parsed again by the
 * listing's own schema) or one group's page. Nothing else is trusted: the answer is the actor's own.
 */
export const refreshListingSchema = z.object({
  resource: z.enum(["webhook-groups", "events", "webhooks"]),
  search: z.string().max(8_000).default(""),
  groupId: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number)
    .refine((id) => id >= 1)
    .optional()
    .or(z.literal("").transform(() => undefined)),
});
