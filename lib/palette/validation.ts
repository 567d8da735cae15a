import { z } from "zod";
import { valueProblem } from "@/lib/listing/filters";
import { GROUP_SEARCH_MIN } from "./limits";

export const GROUP_SEARCH_MAX = 100;

/** `?q=` of the palette's group search: a part of a name, as the EMS `name=*contains*` search takes it. */
export const groupSearchSchema = z.object({
  q: z
    .string({ error: "Say what to search for (?q=)." })
    .trim()
    .min(GROUP_SEARCH_MIN, { error: `Type at least ${GROUP_SEARCH_MIN} characters of a name.` })
    .max(GROUP_SEARCH_MAX, { error: `A name to search for has at most ${GROUP_SEARCH_MAX} characters.` })
    .superRefine((value, ctx) => {
      const problem = valueProblem("name", "text", value, "=*contains*");
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
});
