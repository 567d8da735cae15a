import { z } from "zod";
import { recordId, title } from "./plan-fields.validation";

export const draftGroupDeleteSchema = z.object({ id: recordId, title });
