import { z } from "zod";

/** A positive id as the page writes it; anything else (another shape, a number too large) is no id. */
const id = (message: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, message)
    .transform(Number)
    .refine((value) => value >= 1, message);

/**
 * What a "Reveal" button sends: the group, the webhook ("" for the group's own headers), the header's
 * place in its list and its name. Only ids and a name: the value comes from the EMS, never from here.
 */
export const revealHeaderValueSchema = z.object({
  groupId: id("There is no such webhook group."),
  webhookId: id("There is no such webhook.")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  index: z
    .string()
    .regex(/^\d{1,3}$/, "There is no such header.")
    .transform(Number),
  name: z.string().min(1, "There is no such header.").max(1_000, "There is no such header."),
});
