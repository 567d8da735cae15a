import { z } from "zod";
import { viewIdSchema, viewNameSchema, viewQuerySchema, viewScopeSchema } from "@/lib/views/validation";

export const updateViewSchema = z.object({
  viewId: viewIdSchema,
  name: viewNameSchema.optional(),
  scope: viewScopeSchema.optional(),
  query: viewQuerySchema.optional(),
});
