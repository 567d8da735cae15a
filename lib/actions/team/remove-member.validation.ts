import { z } from "zod";

export const removeMemberSchema = z.object({
  membershipId: z.string().trim().min(1, { error: "Which member?" }).max(100),
});
