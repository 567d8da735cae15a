import { z } from "zod";

export const changeMemberRoleSchema = z.object({
  membershipId: z.string().trim().min(1, { error: "Which member?" }).max(100),
  role: z.enum(["OWNER", "ADMIN", "MEMBER"], { error: "Choose a role." }),
});
