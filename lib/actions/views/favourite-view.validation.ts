import { z } from "zod";
import { viewIdSchema } from "@/lib/views/validation";

export const favouriteViewSchema = z.object({
  viewId: viewIdSchema,
  /** "on": add to favourites; empty: remove. */
  favourite: z.enum(["on", ""], { error: "Choose add or remove." }).transform((value) => value === "on"),
});
