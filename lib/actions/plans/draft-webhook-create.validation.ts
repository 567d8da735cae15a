import { headerRowProblems, toWebhookValues, webhookFields } from "./plan-fields.validation";

/** The new-webhook form (the same fields, no id). */
export const draftWebhookCreateSchema = webhookFields
  .loose()
  .superRefine(headerRowProblems)
  .transform((input) => ({ title: input.title, values: toWebhookValues(input, input as Record<string, unknown>) }));
