"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { updateView } from "@/lib/views/views";
import { failure, formObject, type ViewActionResult } from "./result";
import { updateViewSchema } from "./update-view.validation";

/** Renames a view, shares it with the team (or makes it personal again), or replaces its options. */
export async function updateViewAction(_previous: ViewActionResult, formData: FormData): Promise<ViewActionResult> {
  const actor = await requireActor();
  try {
    const { viewId, ...changes } = updateViewSchema.parse(formObject(formData));
    const view = await updateView(actor, viewId, changes);
    revalidatePath("/views");
    return { ok: true, message: `Saved “${view.name}”.` };
  } catch (error) {
    return failure(error);
  }
}
