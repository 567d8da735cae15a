"use server";

import { redirect } from "next/navigation";
import { authedAction } from "@/lib/actions/pipeline";
import { FieldError } from "@/lib/errors";
import { leaveTeam } from "@/lib/teams/members";
import { leaveTeamSchema } from "./leave-team.validation";

export const leaveTeamAction = authedAction({ name: "team.leave", schema: leaveTeamSchema }, async ({ confirmTeamName }, { actor, ip }) => {
  if (confirmTeamName !== actor.teamName.trim()) {
    throw new FieldError("confirmTeamName", `Type “${actor.teamName}” exactly to confirm.`, "not_confirmed");
  }
  await leaveTeam(actor, { ip });
  redirect("/team?left=1");
});
