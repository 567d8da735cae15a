"use server";

import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { removeMember } from "@/lib/teams/members";
import { errorState } from "@/lib/teams/action-errors";
import { removeMemberSchema } from "./remove-member.validation";

export async function removeMemberAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const actor = await requireActor();
  const parsed = removeMemberSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error) };
  try {
    await removeMember(actor, parsed.data, { ip: await clientIp() });
    revalidatePath("/team");
    return { status: "success", message: "Removed. Their sessions end at their next request; their credentials and personal views were deleted." };
  } catch (error) {
    return errorState(error, "team.remove-member");
  }
}
