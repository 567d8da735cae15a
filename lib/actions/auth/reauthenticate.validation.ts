import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "@/lib/auth/password-policy";

/** The password, a code, or both (lib/auth/reauth.ts decides which counts for whom). */
export const reauthenticateSchema = z.object({
  password: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  code: z.string().trim().max(64).optional(),
});
