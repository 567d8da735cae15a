import { z } from "zod";
import { viewIdSchema } from "@/lib/views/validation";

export const copyViewSchema = z.object({
  viewId: viewIdSchema,
  name: z.string().max(200).optional(),
});
