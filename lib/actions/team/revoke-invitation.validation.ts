import { z } from "zod";

export const revokeInvitationSchema = z.object({
  invitationId: z.string().trim().min(1, { error: "Which invitation?" }).max(100),
});
