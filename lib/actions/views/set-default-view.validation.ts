import { z } from "zod";
import { viewIdSchema, viewPageSchema } from "@/lib/views/validation";

export const setDefaultViewSchema = z.object({
  page: viewPageSchema,
  /** Empty: no default view for this page. */
  viewId: z.union([viewIdSchema, z.literal("")]),
});
