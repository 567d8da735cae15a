import { z } from "zod";

export const requireTwoFactorSchema = z.object({
  required: z.enum(["true", "false"], { error: "Choose whether two-factor is required." }).transform((value) => value === "true"),
});
