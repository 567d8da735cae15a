import { z } from "zod";

/** Where to go back to after a refresh: one of the pages built on the setup, never a free URL. */
export const refreshSetupSchema = z.object({
  returnTo: z
    .string()
    .max(2_000)
    .refine((path) => /^\/(coverage|health|events\/\d{1,15})(\?[^#\s]*)?$/.test(path), "Cannot go back there."),
});
