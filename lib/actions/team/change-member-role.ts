"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { changeMemberRole } from "@/lib/teams/members";
import { changeMemberRoleSchema } from "./change-member-role.validation";

export const changeMemberRoleAction = authedAction(
  { name: "team.change-member-role", schema: changeMemberRoleSchema, recentAuth: true },
  async (input, { actor, ip }) => {
    const { changed } = await changeMemberRole(actor, input, { ip });
    revalidatePath("/team");
    return { message: changed ? "Role changed." : "That is already their role." };
  },
);
