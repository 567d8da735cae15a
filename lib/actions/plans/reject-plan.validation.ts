import { z } from "zod";
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE } from "@/lib/text/invisible-characters";
import { planIdSchema } from "./plan-fields.validation";

export const rejectPlanSchema = planIdSchema.extend({
  reason: z
    .string()
    .transform((reason) => reason.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(1, "Say why, so the author knows what to change.")
        .max(500, "Keep the reason under 500 characters.")
        .refine((text) => !hasInvisibleCharacters(text), `The reason ${INVISIBLE_CHARACTERS_MESSAGE}`),
    ),
});
