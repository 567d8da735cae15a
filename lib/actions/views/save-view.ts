"use server";
import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { createView, setDefaultView, viewHref } from "@/lib/views/views";
import { failure, formObject, type ViewActionResult } from "./result";
import { saveViewSchema } from "./save-view.validation";

/** Saves the current options of a listing page as a named view, then opens it. */
export async function saveViewAction(_previous: ViewActionResult, formData: FormData): Promise<ViewActionResult> {
  const actor = await requireActor();
  let href: string;
  try {
    const input = saveViewSchema.parse(formObject(formData));
    const view = await createView(actor, input);
    if (input.makeDefault) await setDefaultView(actor, input.page, view.id);
    href = viewHref(view);
  } catch (error) {
    return failure(error);
  }
  revalidatePath("/views");
  redirect(href);
}
