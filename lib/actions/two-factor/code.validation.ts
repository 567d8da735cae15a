import { z } from "zod";

/** A code typed by a person: six digits from the app, or (where allowed) a recovery code. */
export const codeSchema = z.object({
  code: z.string({ error: "Enter the code from your app." }).trim().min(1, { error: "Enter the code from your app." }).max(64),
});
