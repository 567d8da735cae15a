import { z } from "zod";
import { newPasswordSchema } from "@/lib/auth/password-policy";
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE } from "@/lib/text/invisible-characters";

export const signUpSchema = z.object({
  // Shown to the team (members, audit log, the personal team's name): no bidi override or other invisible character.
  name: z
    .string()
    .trim()
    .min(1, { error: "Enter your name." })
    .max(100, { error: "Use at most 100 characters." })
    .refine((name) => !hasInvisibleCharacters(name) && !/[\r\n\t]/.test(name), { error: `Your name ${INVISIBLE_CHARACTERS_MESSAGE}` }),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "Enter a valid email address." }))
    .pipe(z.string().max(320)),
  password: newPasswordSchema,
  invite: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
});

export type SignUpInput = z.infer<typeof signUpSchema>;
