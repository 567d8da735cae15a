import { z } from "zod";
import { viewIdSchema, viewNameSchema } from "@/lib/views/validation";

export const copyViewSchema = z.object({
  viewId: viewIdSchema,
  /** Empty or absent: "<name> (copy)". */
  name: z
    .string()
    .optional()
    .transform((name) => (name?.trim() ? name : undefined))
    .pipe(viewNameSchema.optional()),
});
