import { z } from "zod";
import { searchValueProblems } from "@/lib/ems/contract";
import { RECORD_SEARCH_MAX, RECORD_SEARCH_MIN } from "./limits";

/** Why the EMS cannot take a text as a `=*contains*` search value, in the palette's words. */
function searchProblem(value: string): string | null {
  const [problem] = searchValueProblems("url", "text", "=*contains*", value);
  switch (problem?.kind) {
    case undefined:
      return null;
    case "ampersand":
      return "The EMS API cannot search for “&”: search for the part before or after it.";
    case "control-character":
      return "A search cannot contain a control character (a tab or a line break).";
    default:
      return "The EMS API cannot search for that text.";
  }
}

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
      const problem = searchProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
});
