import { z } from "zod";
import { emsId, plainText, recordId, title } from "./plan-fields.validation";

export const draftWebhookDuplicateSchema = z.object({
  id: recordId,
  title,
  group_id: z
    .string()
    .default("")
    .transform((value) => (value === "" ? null : Number(value)))
    .pipe(emsId("That webhook group does not exist.").nullable()),
  name: plainText(255, "The name").optional(),
});
