"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { updateView } from "@/lib/views/views";
import { updateViewSchema } from "./update-view.validation";

/** Renames a view, shares it with the team (or makes it personal again), or replaces its options. */
export const updateViewAction = authedAction({ name: "views.update", schema: updateViewSchema }, async ({ viewId, ...changes }, { actor }) => {
  const view = await updateView(actor, viewId, changes);
  revalidatePath("/views");
  return { message: `Saved “${view.name}”.` };
});
