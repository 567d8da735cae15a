"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { setViewFavourite } from "@/lib/views/views";
import { favouriteViewSchema } from "./favourite-view.validation";

/** Adds a view the actor can see to their favourites, or removes it (their own marks only). */
export const favouriteViewAction = authedAction({ name: "views.favourite", schema: favouriteViewSchema }, async ({ viewId, favourite }, { actor }) => {
  const view = await setViewFavourite(actor, viewId, favourite);
  revalidatePath("/views");
  revalidatePath(`/${view.page}`);
  return { message: favourite ? `Added “${view.name}” to favourites.` : `Removed “${view.name}” from favourites.` };
});
