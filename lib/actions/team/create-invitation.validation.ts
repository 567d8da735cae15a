import { z } from "zod";

export const createInvitationSchema = z.object({
  role: z.enum(["OWNER", "ADMIN", "MEMBER"], { error: "Choose the role the invited person will have." }),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(320, { error: "That email address is too long." })
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.email({ error: "Enter a valid email address, or leave it empty." }).optional()),
});

export type CreateInvitationInput = z.infer<typeof createInvitationSchema>;
