import { z } from "zod";
import { viewNameSchema, viewPageSchema, viewQuerySchema, viewScopeSchema } from "@/lib/views/validation";

export const saveViewSchema = z.object({
  page: viewPageSchema,
  name: viewNameSchema,
  query: viewQuerySchema.default(""),
  scope: viewScopeSchema.default("PERSONAL"),
  makeDefault: z.enum(["on"]).optional(),
  /**
   * "open" (a form posted without JavaScript): answer with a redirect to the new view. "answer"
   * (the form's script): answer with its link, for a toast and a client navigation.
   */
  then: z.enum(["open", "answer"]).default("open"),
});
