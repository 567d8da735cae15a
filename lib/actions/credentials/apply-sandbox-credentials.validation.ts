import { z } from "zod";

/** Which of the sandbox's built-in accounts to use. */
export const applySandboxCredentialsSchema = z.object({
  account: z.enum(["demo", "other"], { error: "Choose a sandbox account." }).default("demo"),
});
