"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { markAllInboxRead } from "@/lib/inbox/list";
import { plural } from "@/lib/text/plural";
import { markAllReadSchema } from "./mark-all-read.validation";

/** Any member: marks every unread item of their own inbox read. */
export const markAllInboxReadAction = authedAction({ name: "inbox.mark-all-read", schema: markAllReadSchema }, async (_input, { actor }) => {
  const count = await markAllInboxRead(actor);
  revalidatePath("/inbox");
  return { message: count === 0 ? "Nothing was unread." : `Marked ${plural(count, "item")} as read.` };
});
