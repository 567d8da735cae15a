import { z } from "zod";
import { CHECK_POLICIES } from "@/lib/health/policies";
import { RULE_IDS } from "@/lib/health/types";

/** One check and what the team wants done with its findings (lib/health/policies.ts). */
export const setCheckPolicySchema = z.object({
  ruleId: z.enum(RULE_IDS, { error: "There is no such health check." }),
  policy: z.enum(CHECK_POLICIES, { error: "Choose Off, Tell us or Draft the fix." }),
});
