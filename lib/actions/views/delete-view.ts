"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { deleteView } from "@/lib/views/views";
import { deleteViewSchema } from "./delete-view.validation";
import { failure, formObject, type ViewActionResult } from "./result";

export async function deleteViewAction(_previous: ViewActionResult, formData: FormData): Promise<ViewActionResult> {
  const actor = await requireActor();
  try {
    const { viewId } = deleteViewSchema.parse(formObject(formData));
    await deleteView(actor, viewId);
    revalidatePath("/views");
    return { ok: true, message: "View deleted." };
  } catch (error) {
    return failure(error);
  }
}
