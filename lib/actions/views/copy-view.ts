"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { copyView } from "@/lib/views/views";
import { copyViewSchema } from "./copy-view.validation";

/** A personal copy of a view the actor can see (members copy team views to change them). */
export const copyViewAction = authedAction({ name: "views.copy", schema: copyViewSchema }, async ({ viewId, name }, { actor }) => {
  const copy = await copyView(actor, viewId, name);
  revalidatePath("/views");
  return { message: `Copied as “${copy.name}”.` };
});
