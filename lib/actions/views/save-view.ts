"use server";

import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { createView, setDefaultView, viewHref } from "@/lib/views/views";
import { saveViewSchema } from "./save-view.validation";

/** Saves the current options of a listing page as a named view, then opens it. */
export const saveViewAction = authedAction<typeof saveViewSchema, { href: string }>({ name: "views.save", schema: saveViewSchema }, async (input, { actor }) => {
  const view = await createView(actor, input);
  if (input.makeDefault) await setDefaultView(actor, input.page, view.id);
  revalidatePath("/views");
  if (input.then === "open") redirect(viewHref(view));
  return { message: `Saved “${view.name}”.`, data: { href: viewHref(view) } };
});
