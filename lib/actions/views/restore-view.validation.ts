import { z } from "zod";
import { viewNameSchema, viewPageSchema, viewQuerySchema, viewScopeSchema } from "@/lib/views/validation";

/**
 * What "Undo" sends back after a deletion: only what anyone may save (no team, owner or id; unknown
 * fields are dropped by the object schema, so a crafted `teamId` or `ownerId` is never read).
 */
export const restoreViewSchema = z.object({
  page: viewPageSchema,
  name: viewNameSchema,
  query: viewQuerySchema.default(""),
  scope: viewScopeSchema,
  makeDefault: z
    .enum(["on", ""])
    .optional()
    .transform((value) => value === "on"),
  favourite: z
    .enum(["on", ""])
    .optional()
    .transform((value) => value === "on"),
});
