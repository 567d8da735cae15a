"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { deleteView, type DeletedView } from "@/lib/views/views";
import { deleteViewSchema } from "./delete-view.validation";

/** Deletes a view; answers what was deleted, which the toast's "Undo" hands to restoreViewAction. */
export const deleteViewAction = authedAction<typeof deleteViewSchema, DeletedView>({ name: "views.delete", schema: deleteViewSchema }, async ({ viewId }, { actor }) => {
  const deleted = await deleteView(actor, viewId);
  revalidatePath("/views");
  return { message: `Deleted “${deleted.name}”.`, data: deleted };
});
