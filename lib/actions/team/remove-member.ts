"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { removeMember } from "@/lib/teams/members";
import { removeMemberSchema } from "./remove-member.validation";

export const removeMemberAction = authedAction({ name: "team.remove-member", schema: removeMemberSchema, recentAuth: true }, async (input, { actor, ip }) => {
  await removeMember(actor, input, { ip });
  revalidatePath("/team");
  return { message: "Removed. Their sessions end at their next request; their credentials and personal views were deleted." };
});
