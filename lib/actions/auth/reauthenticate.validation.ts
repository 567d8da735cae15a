import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "@/lib/auth/password-policy";

/** One of the two, by whether the person has two-factor (lib/auth/reauth.ts decides which counts). */
export const reauthenticateSchema = z.object({
  password: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  code: z.string().trim().max(64).optional(),
});
