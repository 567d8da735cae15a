import { z } from "zod";

/** A rule id (lib/health/rules.ts), the finding's key ("" or absent: the whole rule) and why. */
export const muteFindingSchema = z.object({
  ruleId: z.string().regex(/^[a-z0-9-]{1,64}$/, "There is no such health check."),
  findingKey: z.string().max(2_000, "That finding cannot be muted.").default(""),
  reason: z
    .string()
    .trim()
    .min(1, "Say why it is muted, so the team knows later.")
    .max(500, "Keep the reason under 500 characters."),
});
