import { z } from "zod";
import { recordId, title } from "./plan-fields.validation";

export const draftWebhookDeleteSchema = z.object({ id: recordId, title });
