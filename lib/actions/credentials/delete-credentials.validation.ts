import { z } from "zod";

export const deleteCredentialsSchema = z.object({
  credentialId: z.string().trim().min(1, { error: "Which credentials?" }).max(100),
});
