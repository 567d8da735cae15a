"use server";
import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { copyView } from "@/lib/views/views";
import { copyViewSchema } from "./copy-view.validation";
import { failure, formObject, type ViewActionResult } from "./result";

/** A personal copy of a view the actor can see (members copy team views to change them). */
export async function copyViewAction(_previous: ViewActionResult, formData: FormData): Promise<ViewActionResult> {
  const actor = await requireActor();
  try {
    const { viewId, name } = copyViewSchema.parse(formObject(formData));
    const copy = await copyView(actor, viewId, name);
    revalidatePath("/views");
    return { ok: true, message: `Copied as “${copy.name}”.` };
  } catch (error) {
    return failure(error);
  }
}
