"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { setDefaultView } from "@/lib/views/views";
import { setDefaultViewSchema } from "./set-default-view.validation";

export const setDefaultViewAction = authedAction({ name: "views.set-default", schema: setDefaultViewSchema }, async ({ page, viewId }, { actor }) => {
  await setDefaultView(actor, page, viewId === "" ? null : viewId);
  revalidatePath("/views");
  return { message: viewId === "" ? "No default view now." : "Default view set." };
});
