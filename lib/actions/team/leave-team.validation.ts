import { z } from "zod";

/** Leaving is confirmed by typing the team's name (checked against the actor's team in the action). */
export const leaveTeamSchema = z.object({
  confirmTeamName: z.string().trim().min(1, { error: "Type the team's name to confirm." }).max(200),
});
