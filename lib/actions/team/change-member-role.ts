"use server";

import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { fieldErrorsOf, formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { changeMemberRole } from "@/lib/teams/members";
import { errorState } from "@/lib/teams/action-errors";
import { changeMemberRoleSchema } from "./change-member-role.validation";

export async function changeMemberRoleAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const actor = await requireActor();
  const parsed = changeMemberRoleSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", fieldErrors: fieldErrorsOf(parsed.error) };
  try {
    const { changed } = await changeMemberRole(actor, parsed.data, { ip: await clientIp() });
    revalidatePath("/team");
    return { status: "success", message: changed ? "Role changed." : "That is already their role." };
  } catch (error) {
    return errorState(error, "team.change-member-role");
  }
}
