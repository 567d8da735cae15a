import { z } from "zod";
import { viewIdSchema } from "@/lib/views/validation";

export const deleteViewSchema = z.object({ viewId: viewIdSchema });
