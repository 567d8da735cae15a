import { z } from "zod";
import { viewNameSchema, viewPageSchema, viewQuerySchema, viewScopeSchema } from "@/lib/views/validation";

export const saveViewSchema = z.object({
  page: viewPageSchema,
  name: viewNameSchema,
  query: viewQuerySchema.default(""),
  scope: viewScopeSchema.default("PERSONAL"),
  makeDefault: z.enum(["on"]).optional(),
});
