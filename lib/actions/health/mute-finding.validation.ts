import { z } from "zod";
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE } from "@/lib/text/invisible-characters";

/** A finding's key is made of ids, URLs and trigger names: no control or invisible character at all. */
const unfitKey = (key: string) => hasInvisibleCharacters(key) || /\p{Cc}/u.test(key);

/** A rule id (lib/health/rules.ts), the finding's key ("" or absent: the whole rule) and why. */
export const muteFindingSchema = z.object({
  ruleId: z.string().regex(/^[a-z0-9-]{1,64}$/, "There is no such health check."),
  findingKey: z
    .string()
    .max(50_000, "That finding cannot be muted; mute the whole check instead.")
    .refine((key) => !unfitKey(key), "That finding cannot be muted; mute the whole check instead.")
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
        // Line breaks and tabs are the reason's own; bidi overrides and zero-width characters are not.
        .refine((reason) => !hasInvisibleCharacters(reason), `The reason ${INVISIBLE_CHARACTERS_MESSAGE}`),
    ),
});
