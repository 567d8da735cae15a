"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { deleteView } from "@/lib/views/views";
import { deleteViewSchema } from "./delete-view.validation";

export const deleteViewAction = authedAction({ name: "views.delete", schema: deleteViewSchema }, async ({ viewId }, { actor }) => {
  await deleteView(actor, viewId);
  revalidatePath("/views");
  return { message: "View deleted." };
});
