import { z } from "zod";
import { checkEmsBaseUrl } from "@/lib/ems/destination";

export const saveCredentialsSchema = z.object({
  baseUrl: z
    .string()
    .max(500, { error: "That URL is too long." })
    .transform((value, ctx) => {
      const checked = checkEmsBaseUrl(value);
      if (!checked.ok) {
        ctx.addIssue({ code: "custom", message: checked.message });
        return z.NEVER;
      }
      return checked.baseUrl;
    }),
  consumerKey: z.string().trim().min(1, { error: "Enter the consumer key." }).max(200, { error: "That key is longer than any EMS key (200 characters at most)." }),
  // Not trimmed: a secret is used exactly as typed.
  consumerSecret: z.string().min(1, { error: "Enter the consumer secret." }).max(500, { error: "That secret is longer than any EMS secret (500 characters at most)." }),
  // "1" from the form's "Save anyway" button, offered when the API did not answer the check.
  saveAnyway: z
    .literal("1")
    .optional()
    .transform((value) => value === "1"),
});

export type SaveCredentialsInput = z.infer<typeof saveCredentialsSchema>;
