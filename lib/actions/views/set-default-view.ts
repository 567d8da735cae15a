"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { setDefaultView } from "@/lib/views/views";
import { failure, formObject, type ViewActionResult } from "./result";
import { setDefaultViewSchema } from "./set-default-view.validation";

export async function setDefaultViewAction(_previous: ViewActionResult, formData: FormData): Promise<ViewActionResult> {
  const actor = await requireActor();
  try {
    const { page, viewId } = setDefaultViewSchema.parse(formObject(formData));
    await setDefaultView(actor, page, viewId === "" ? null : viewId);
    revalidatePath("/views");
    return { ok: true, message: viewId === "" ? "No default view now." : "Default view set." };
  } catch (error) {
    return failure(error);
  }
}
