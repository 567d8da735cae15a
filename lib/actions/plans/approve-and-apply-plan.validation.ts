import { planIdSchema } from "./plan-fields.validation";

/** The drafted fix the action is for. */
export const approveAndApplyPlanSchema = planIdSchema;
