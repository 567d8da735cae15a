import { z } from "zod";
import { newPasswordSchema } from "@/lib/auth/password-policy";

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, { error: "Enter your current password." }).max(256),
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], error: "The two new passwords differ." })
  .refine((v) => v.newPassword !== v.currentPassword, { path: ["newPassword"], error: "Choose a password different from the current one." });
