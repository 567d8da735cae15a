import { z } from "zod";

export const acceptInvitationSchema = z.object({
  token: z.string().trim().min(1, { error: "The invitation link is incomplete." }).max(200),
});
