import { z } from "zod";
import { newPasswordSchema } from "@/lib/auth/password-policy";

export const signUpSchema = z.object({
  name: z.string().trim().min(1, { error: "Enter your name." }).max(100, { error: "Use at most 100 characters." }),
  email: z.string().trim().toLowerCase().pipe(z.email({ error: "Enter a valid email address." })).pipe(z.string().max(320)),
  password: newPasswordSchema,
  invite: z.string().trim().max(200).optional().transform((v) => v || undefined),
});

export type SignUpInput = z.infer<typeof signUpSchema>;
