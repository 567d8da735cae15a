import { z } from "zod";
import { textSearchProblem } from "@/lib/listing/text-search";
import { RECORD_SEARCH_MAX, RECORD_SEARCH_MIN } from "./limits";

/**
 * `?q=` of the palette's record search: a part of a webhook's name, URL or host, or of an event's
 * name, or an id; as the EMS `=*contains*` search takes it (no "&", no control characters).
 */
export const recordSearchSchema = z.object({
  q: z
    .string({ error: "Say what to search for (?q=)." })
    .trim()
    .min(RECORD_SEARCH_MIN, { error: `Type at least ${RECORD_SEARCH_MIN} characters.` })
    .max(RECORD_SEARCH_MAX, { error: `A search has at most ${RECORD_SEARCH_MAX} characters.` })
    .superRefine((value, ctx) => {
      const problem = textSearchProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
});
