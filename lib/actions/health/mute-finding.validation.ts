import { z } from "zod";

/**
 * Control characters, and the invisible ones that reorder or hide text (bidi controls, zero-width
 * space, byte-order mark): nothing a person means to type. Joiners stay (emoji sequences use them).
 */
const INVISIBLE = /[\p{Cc}\u200B\u202A-\u202E\u2066-\u2069\uFEFF]/u;
const invisibleOutsideLines = (text: string) => INVISIBLE.test(text.replace(/[\n\t]/g, ""));

/** A rule id (lib/health/rules.ts), the finding's key ("" or absent: the whole rule) and why. */
export const muteFindingSchema = z.object({
  ruleId: z.string().regex(/^[a-z0-9-]{1,64}$/, "There is no such health check."),
  findingKey: z
    .string()
    .max(50_000, "That finding cannot be muted; mute the whole check instead.")
    .refine((key) => !INVISIBLE.test(key), "That finding cannot be muted; mute the whole check instead.")
    .default(""),
  reason: z
    .string()
    // A browser sends a line break as CRLF; its maxLength counted one character.
    .transform((reason) => reason.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(1, "Say why it is muted, so the team knows later.")
        .max(500, "Keep the reason under 500 characters.")
        .refine((reason) => !invisibleOutsideLines(reason), "The reason has invisible control characters; type it again."),
    ),
});
