import { headerRowProblems, recordId, replacesPlanId, toWebhookValues, webhookFields } from "./plan-fields.validation";

/** The webhook edit form: every field it shows, as the webhook should be. */
export const draftWebhookEditSchema = webhookFields
  .extend({ id: recordId, replacesPlanId })
  .loose()
  .superRefine(headerRowProblems)
  .transform((input) => ({ id: input.id, title: input.title, replacesPlanId: input.replacesPlanId, values: toWebhookValues(input, input as Record<string, unknown>) }));
