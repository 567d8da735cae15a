"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { restoreView, viewHref } from "@/lib/views/views";
import { restoreViewSchema } from "./restore-view.validation";

/**
 * "Undo" of a deletion: the view made again in the actor's team, as the actor (lib/views/views.ts
 * restoreView says why it is a re-creation and not a soft delete). Answers the restored view's link.
 */
export const restoreViewAction = authedAction<typeof restoreViewSchema, { href: string }>(
  { name: "views.restore", schema: restoreViewSchema },
  async (input, { actor }) => {
    const view = await restoreView(actor, input);
    revalidatePath("/views");
    revalidatePath(`/${view.page}`);
    return { message: `Restored “${view.name}”.`, data: { href: viewHref(view) } };
  },
);
