"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { markInboxItemRead } from "@/lib/inbox/list";
import { markReadSchema } from "./mark-read.validation";

/** Any member: marks one item of their own inbox read (another person's item is "not found"). */
export const markInboxItemReadAction = authedAction({ name: "inbox.mark-read", schema: markReadSchema }, async (input, { actor }) => {
  await markInboxItemRead(actor, input.itemId);
  revalidatePath("/inbox");
  return { message: "Marked as read." };
});
