"use server";

import { redirect } from "next/navigation";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { leaveTeam } from "@/lib/teams/members";
import { errorState } from "@/lib/teams/action-errors";
import { leaveTeamSchema } from "./leave-team.validation";

export async function leaveTeamAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const actor = await requireActor();
  const parsed = leaveTeamSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error) };
  if (parsed.data.confirmTeamName !== actor.teamName.trim()) {
    return { status: "error", fieldErrors: { confirmTeamName: `Type “${actor.teamName}” exactly to confirm.` } };
  }
  try {
    await leaveTeam(actor, { ip: await clientIp() });
  } catch (error) {
    return errorState(error, "team.leave");
  }
  redirect("/team?left=1");
}
