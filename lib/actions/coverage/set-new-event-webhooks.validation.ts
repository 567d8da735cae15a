import { z } from "zod";

/** At most this many webhooks picked one by one (a group names any number). */
export const MAX_NEW_EVENT_WEBHOOKS = 50;

const ID_MESSAGE = "Webhook ids are whole numbers, separated by commas or spaces.";
const isEmsId = (value: number) => Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647;

/**
 * The webhooks every new event should have: ids typed as "411, 412" (commas or spaces), and a
 * group's id or nothing. Ids of the account are checked when a plan is drafted (one gone is left out).
 */
export const setNewEventWebhooksSchema = z.object({
  webhookIds: z
    .string()
    .max(2_000, ID_MESSAGE)
    .default("")
    .transform((text) => text.split(/[\s,]+/).filter((part) => part !== ""))
    // The whole list is one field: its message is the field's, whichever id is wrong.
    .refine((parts) => parts.every((part) => /^\d{1,10}$/.test(part) && isEmsId(Number(part))), ID_MESSAGE)
    .transform((parts) => [...new Set(parts.map(Number))])
    .refine((ids) => ids.length <= MAX_NEW_EVENT_WEBHOOKS, `Pick at most ${MAX_NEW_EVENT_WEBHOOKS} webhooks, or name a group.`),
  groupId: z
    .string()
    .trim()
    .default("")
    .refine((text) => text === "" || (/^\d{1,10}$/.test(text) && isEmsId(Number(text))), "A group's id is a whole number.")
    .transform((text) => (text === "" ? null : Number(text))),
});
